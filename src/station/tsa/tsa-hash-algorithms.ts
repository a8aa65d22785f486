/** Hash algorithms the station timestamps (RFC 3161 messageImprint) and signs with; SHA-1 is refused on purpose. */
export type TsaHashAlgorithm = 'SHA-256' | 'SHA-384' | 'SHA-512';

export interface TsaHashAlgorithmInfo {
  readonly name: TsaHashAlgorithm;
  readonly oid: string;
  /** Name for node:crypto createHash / sign. */
  readonly nodeName: 'sha256' | 'sha384' | 'sha512';
  readonly length: number;
}

export const TSA_HASH_ALGORITHMS: Readonly<Record<TsaHashAlgorithm, TsaHashAlgorithmInfo>> = {
  'SHA-256': { name: 'SHA-256', oid: '2.16.840.1.101.3.4.2.1', nodeName: 'sha256', length: 32 },
  'SHA-384': { name: 'SHA-384', oid: '2.16.840.1.101.3.4.2.2', nodeName: 'sha384', length: 48 },
  'SHA-512': { name: 'SHA-512', oid: '2.16.840.1.101.3.4.2.3', nodeName: 'sha512', length: 64 },
};
