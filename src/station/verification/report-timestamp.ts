import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import type { checkTimestampToken } from './check-timestamp-token.js';

/** A timestamp token reported as a signature of its own (a PDF document timestamp, a .tsr file). */
export function reportTimestamp(timestamp: Awaited<ReturnType<typeof checkTimestampToken>>, coversWholeDocument: boolean | null): SignatureVerification {
  return {
    kind: 'RFC 3161 timestamp',
    signer: timestamp.authority,
    issuer: null,
    serialNumber: timestamp.tstInfo ? Buffer.from(timestamp.tstInfo.serialNumber).toString('hex') : null,
    claimedTime: timestamp.time || null,
    reason: null,
    level: null,
    intact: timestamp.valid,
    coversWholeDocument,
    chain: { trusted: timestamp.trusted, anchor: null, certificates: [timestamp.authority], problems: [] },
    revocation: 'not embedded',
    timestamp: { time: timestamp.time, authority: timestamp.authority, valid: timestamp.valid, trusted: timestamp.trusted, problems: timestamp.problems },
    valid: timestamp.valid && timestamp.trusted,
    problems: timestamp.problems,
  };
}
