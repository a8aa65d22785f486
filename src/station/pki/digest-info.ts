import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import { DigestInfo, sha256, sha384, sha512 } from '@peculiar/asn1-rsa';
import { HASH_ALGORITHMS, type HashAlgorithm } from './hash-algorithms.js';

const ALGORITHMS = { 'SHA-256': sha256, 'SHA-384': sha384, 'SHA-512': sha512 } as const;

/** Throws TypeError when `hash` cannot be a digest of `algorithm` (a caller's mistake, never the token's). */
export function assertHashLength(hash: Uint8Array, algorithm: HashAlgorithm): void {
  const expected = HASH_ALGORITHMS[algorithm]?.length;
  if (expected === undefined) throw new TypeError(`Unsupported hash algorithm ${String(algorithm)}`);
  if (hash.length !== expected) throw new TypeError(`A ${algorithm} hash is ${expected} bytes, got ${hash.length}`);
}

/** RFC 8017 §9.2 DigestInfo (hash OID with NULL parameters) that CKM_RSA_PKCS, ID cards and raw RSA sign. */
export function encodeDigestInfo(algorithm: HashAlgorithm, hash: Uint8Array): Uint8Array {
  assertHashLength(hash, algorithm);
  return new Uint8Array(AsnConvert.serialize(new DigestInfo({ digestAlgorithm: ALGORITHMS[algorithm], digest: new OctetString(hash) })));
}
