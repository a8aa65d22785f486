import { createHash } from 'node:crypto';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { WebEidAuthToken } from '../../core/schemas/iframe-protocol.js';
import type { HashAlgorithm } from '../pki/hash-algorithms.js';
import type { SignatureScheme } from '../tokens/token.js';
import { tokenKeyScheme } from '../signing/token-key-scheme.js';

/**
 * The token's JWS-style algorithm name, the hash it implies and the scheme the key signs with, from the
 * authentication key: PS256 for an RSA key that may only sign RSA-PSS (tokenKeyScheme), RS256 for any other.
 */
export function webEidAlgorithmFor(certificate: Pick<TokenCertificate, 'certificate' | 'keyAlgorithm' | 'keyParameters' | 'signatureSchemes'>): {
  algorithm: WebEidAuthToken['algorithm'];
  hash: HashAlgorithm;
  scheme: SignatureScheme;
} {
  const scheme = tokenKeyScheme(certificate);
  if (scheme === 'RSA-PSS') return { algorithm: 'PS256', hash: 'SHA-256', scheme };
  if (scheme === 'RSASSA-PKCS1-v1_5') return { algorithm: 'RS256', hash: 'SHA-256', scheme };
  return certificate.keyParameters === 'P-384' ? { algorithm: 'ES384', hash: 'SHA-384', scheme } : { algorithm: 'ES256', hash: 'SHA-256', scheme };
}

/** The hash and scheme a Web eID token's algorithm name stands for. */
export function webEidAlgorithm(algorithm: WebEidAuthToken['algorithm']): { hash: HashAlgorithm; scheme: SignatureScheme } {
  const hash = algorithm.endsWith('384') ? 'SHA-384' : 'SHA-256';
  return { hash, scheme: algorithm.startsWith('ES') ? 'ECDSA' : algorithm.startsWith('PS') ? 'RSA-PSS' : 'RSASSA-PKCS1-v1_5' };
}

/**
 * What the authentication key signs (Web eID's `web-eid:1.0`): hash(origin) || hash(nonce), with the algorithm's
 * hash. Binding the origin makes a token made for one web page useless to any other.
 */
export function webEidSignedData(origin: string, nonce: string, hash: HashAlgorithm): Buffer {
  const digest = (text: string): Buffer => createHash(hash.replace('-', '').toLowerCase()).update(text, 'utf8').digest();
  return Buffer.concat([digest(origin), digest(nonce)]);
}
