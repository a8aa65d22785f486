import type { SignatureVerification } from '../../core/schemas/verification-report.js';

/**
 * A signature whose own bytes cannot be read as one (a malformed or empty CMS): TOTAL-FAILED/FORMAT_FAILURE for
 * that signature, so the others of the document are still verified and reported.
 */
export function reportUnreadableSignature(kind: SignatureVerification['kind'], problem: string, now: Date): SignatureVerification {
  const reason = `the signature cannot be read: ${problem}`;
  return {
    kind,
    signer: null,
    issuer: null,
    serialNumber: null,
    claimedTime: null,
    reason: null,
    level: null,
    intact: false,
    coversWholeDocument: null,
    chain: { trusted: false, anchor: null, anchorSource: null, certificates: [], problems: [] },
    revocation: 'not embedded',
    revocationSource: null,
    timestamp: null,
    verdict: { indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', judgedAt: now.toISOString(), judgedAtFrom: 'validation time', reason, advice: null },
    problems: [reason],
  };
}
