import type { HashAlgorithm } from '../pki/hash-algorithms.js';

/**
 * What signing (PAdES signature timestamps, ASiC-E/XAdES SignatureTimeStamp) asks of a TSA, local (in process) or
 * remote (HTTP): a token over a hash. Implementations check the answer (imprint, nonce) before returning it; errors are TimestampClientError.
 */
export interface TimestampClient {
  /** Resolves with the DER TimeStampToken (a CMS ContentInfo), exactly as the TSA signed it. */
  timestamp(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array>;
}
