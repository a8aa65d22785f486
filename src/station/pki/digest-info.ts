import { HASH_ALGORITHMS, type HashAlgorithm } from './hash-algorithms.js';

/**
 * The DER of DigestInfo up to the hash value, fixed per algorithm: RFC 8017 §9.2, note 1 lists these very bytes.
 * Constants rather than an ASN.1 encoder: token code that signs on every start path would otherwise load the
 * @peculiar ASN.1 stack with the station.
 */
const DIGEST_INFO_PREFIXES: Readonly<Record<HashAlgorithm, Buffer>> = {
  'SHA-256': Buffer.from('3031300d060960864801650304020105000420', 'hex'),
  'SHA-384': Buffer.from('3041300d060960864801650304020205000430', 'hex'),
  'SHA-512': Buffer.from('3051300d060960864801650304020305000440', 'hex'),
};

/** Throws TypeError when `hash` cannot be a digest of `algorithm` (a caller's mistake, never the token's). */
export function assertHashLength(hash: Uint8Array, algorithm: HashAlgorithm): void {
  const expected = HASH_ALGORITHMS[algorithm]?.length;
  if (expected === undefined) throw new TypeError(`Unsupported hash algorithm ${String(algorithm)}`);
  if (hash.length !== expected) throw new TypeError(`A ${algorithm} hash is ${expected} bytes, got ${hash.length}`);
}

/** RFC 8017 §9.2 DigestInfo (hash OID with NULL parameters) that CKM_RSA_PKCS, ID cards and raw RSA sign. */
export function encodeDigestInfo(algorithm: HashAlgorithm, hash: Uint8Array): Uint8Array {
  assertHashLength(hash, algorithm);
  return new Uint8Array(Buffer.concat([DIGEST_INFO_PREFIXES[algorithm], hash]));
}
