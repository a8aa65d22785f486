import { constants, verify, type KeyObject } from 'node:crypto';
import type { SignatureScheme } from '../../core/schemas/token-description.js';
import { HASH_ALGORITHMS, type HashAlgorithm } from './hash-algorithms.js';

/**
 * Whether `signature`, in the raw form tokens return (PKCS#1 v1.5 or PSS bytes, ECDSA r||s), is `publicKey`'s
 * signature over `data` with `scheme` and `hashAlgorithm`. PSS as the Token interface signs it: MGF1 over the same
 * hash, a salt as long as the hash (also what JWA's PS256 means). An ECDSA signature in DER, as CMS carries it,
 * with `dsaEncoding` 'der'.
 */
export function verifyRawSignature(
  publicKey: KeyObject,
  scheme: SignatureScheme,
  hashAlgorithm: HashAlgorithm,
  data: Uint8Array,
  signature: Uint8Array,
  dsaEncoding: 'ieee-p1363' | 'der' = 'ieee-p1363',
): boolean {
  const hash = HASH_ALGORITHMS[hashAlgorithm];
  const pss = scheme === 'RSA-PSS' ? { padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: hash.length } : {};
  return verify(hash.nodeName, data, { key: publicKey, dsaEncoding, ...pss }, signature);
}
