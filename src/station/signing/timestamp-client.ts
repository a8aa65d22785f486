import type { HashAlgorithm } from '../tokens/token.js';

/** An RFC 3161 timestamp authority, local or remote. */
export interface TimestampClient {
  /** Returns the DER TimeStampToken (a CMS ContentInfo) over `hash`. Failures are `TimestampFailedError`. */
  timestamp(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array>;
}
