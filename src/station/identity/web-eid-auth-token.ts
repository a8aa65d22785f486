import { createHash } from 'node:crypto';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { WebEidAuthToken } from '../../core/schemas/iframe-protocol.js';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../pki/hash-algorithms.js';
import type { SignatureScheme } from '../tokens/token.js';
import { tokenKeyScheme } from '../signing/token-key-scheme.js';

type WebEidAlgorithm = WebEidAuthToken['algorithm'];

/** The hash and the signature scheme each Web eID algorithm name stands for. */
const ALGORITHMS: Readonly<Record<WebEidAlgorithm, { hash: HashAlgorithm; scheme: SignatureScheme }>> = {
  RS256: { hash: 'SHA-256', scheme: 'RSASSA-PKCS1-v1_5' },
  PS256: { hash: 'SHA-256', scheme: 'RSA-PSS' },
  ES256: { hash: 'SHA-256', scheme: 'ECDSA' },
  ES384: { hash: 'SHA-384', scheme: 'ECDSA' },
};

/**
 * The token's JWS-style algorithm name, the hash it implies and the scheme the key signs with, from the
 * authentication key: PS256 for an RSA key that may only sign RSA-PSS (tokenKeyScheme), RS256 for any other.
 */
export function webEidAlgorithmFor(certificate: Pick<TokenCertificate, 'certificate' | 'keyAlgorithm' | 'keyParameters' | 'signatureSchemes'>): {
  algorithm: WebEidAlgorithm;
  hash: HashAlgorithm;
  scheme: SignatureScheme;
} {
  const scheme = tokenKeyScheme(certificate);
  const algorithm = scheme === 'RSA-PSS' ? 'PS256' : scheme === 'RSASSA-PKCS1-v1_5' ? 'RS256' : certificate.keyParameters === 'P-384' ? 'ES384' : 'ES256';
  return { algorithm, ...ALGORITHMS[algorithm] };
}

/** The hash and scheme a Web eID token's algorithm name stands for. */
export function webEidAlgorithm(algorithm: WebEidAlgorithm): { hash: HashAlgorithm; scheme: SignatureScheme } {
  return ALGORITHMS[algorithm];
}

/**
 * What the authentication key signs (Web eID's `web-eid:1.0`): hash(origin) || hash(nonce), with the algorithm's
 * hash. Binding the origin makes a token made for one web page useless to any other.
 */
export function webEidSignedData(origin: string, nonce: string, hash: HashAlgorithm): Buffer {
  const digest = (text: string): Buffer => createHash(HASH_ALGORITHMS[hash].nodeName).update(text, 'utf8').digest();
  return Buffer.concat([digest(origin), digest(nonce)]);
}
