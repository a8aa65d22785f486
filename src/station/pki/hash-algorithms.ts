/**
 * Hash algorithms the station signs, timestamps (RFC 3161 messageImprint) and asks tokens to sign with; SHA-1 is
 * refused on purpose.
 */
export type HashAlgorithm = 'SHA-256' | 'SHA-384' | 'SHA-512';

export interface HashAlgorithmInfo {
  readonly name: HashAlgorithm;
  readonly oid: string;
  /** Name for node:crypto createHash / sign. */
  readonly nodeName: 'sha256' | 'sha384' | 'sha512';
  readonly length: number;
}

export const HASH_ALGORITHMS: Readonly<Record<HashAlgorithm, HashAlgorithmInfo>> = {
  'SHA-256': { name: 'SHA-256', oid: '2.16.840.1.101.3.4.2.1', nodeName: 'sha256', length: 32 },
  'SHA-384': { name: 'SHA-384', oid: '2.16.840.1.101.3.4.2.2', nodeName: 'sha384', length: 48 },
  'SHA-512': { name: 'SHA-512', oid: '2.16.840.1.101.3.4.2.3', nodeName: 'sha512', length: 64 },
};
