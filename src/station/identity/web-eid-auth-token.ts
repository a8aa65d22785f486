import { createHash } from 'node:crypto';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { WebEidAuthToken } from '../../core/schemas/iframe-protocol.js';
import type { HashAlgorithm } from '../pki/hash-algorithms.js';

/** The token's JWS-style algorithm name and the hash it implies, from the authentication key. */
export function webEidAlgorithmFor(certificate: Pick<TokenCertificate, 'keyAlgorithm' | 'keyParameters'>): { algorithm: WebEidAuthToken['algorithm']; hash: HashAlgorithm } {
  if (certificate.keyAlgorithm === 'RSA') return { algorithm: 'RS256', hash: 'SHA-256' };
  return certificate.keyParameters === 'P-384' ? { algorithm: 'ES384', hash: 'SHA-384' } : { algorithm: 'ES256', hash: 'SHA-256' };
}

/**
 * What the authentication key signs (Web eID's `web-eid:1.0`): hash(origin) || hash(nonce), with the algorithm's
 * hash. Binding the origin makes a token made for one web page useless to any other.
 */
export function webEidSignedData(origin: string, nonce: string, hash: HashAlgorithm): Buffer {
  const digest = (text: string): Buffer => createHash(hash.replace('-', '').toLowerCase()).update(text, 'utf8').digest();
  return Buffer.concat([digest(origin), digest(nonce)]);
}
