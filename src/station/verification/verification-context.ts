import type { TrustSource } from '../ports/trust-source.js';

/** What every check of one verification shares: where trust comes from, and the validation time. */
export interface VerificationContext {
  trust: TrustSource;
  /** The validation time: what a signature is judged at when nothing proves an earlier existence. */
  now: Date;
  /** Fetch revocation data (OCSP, then CRL) a signature does not embed; false offline. */
  fetchRevocation: boolean;
}
