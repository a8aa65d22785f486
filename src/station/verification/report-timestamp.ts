import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import type { TimestampTokenCheck } from './check-timestamp-token.js';

/** A timestamp token reported as a signature of its own (a PDF document timestamp, a .tsr file). */
export function reportTimestamp({ check, tstInfo, revocation }: TimestampTokenCheck, coversWholeDocument: boolean | null): SignatureVerification {
  return {
    kind: 'RFC 3161 timestamp',
    signer: check.authority,
    issuer: null,
    serialNumber: tstInfo ? Buffer.from(tstInfo.serialNumber).toString('hex') : null,
    claimedTime: check.time || null,
    reason: null,
    level: null,
    intact: check.valid,
    coversWholeDocument,
    chain: { trusted: check.trusted, anchor: null, anchorSource: null, certificates: [check.authority], problems: [] },
    revocation: revocation?.status ?? 'not embedded',
    revocationSource: revocation?.source ?? null,
    timestamp: check,
    verdict: check.verdict,
    problems: check.problems,
  };
}
