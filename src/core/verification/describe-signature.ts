import type { SignatureVerification } from '../schemas/verification-report.js';

/**
 * One line a person can read, the same in the CLI and the window: the verdict and, when it is not a pass, the
 * reason that decides it and what to do, first; then who, when, how, and the time it was judged at.
 */
export function describeSignature(s: SignatureVerification): string {
  const { verdict } = s;
  const indication = verdict.subIndication ? `${verdict.indication}/${verdict.subIndication}` : verdict.indication;
  const why = verdict.indication === 'TOTAL-PASSED' ? '' : `: ${verdict.reason}${verdict.advice ? ` (${verdict.advice})` : ''};`;
  const who = s.kind === 'RFC 3161 timestamp' ? `timestamp by ${s.signer}` : `${s.kind} ${s.level ?? ''} signature by ${s.signer ?? 'unknown signer'}`;
  const when = s.timestamp ? `, timestamped ${s.timestamp.time}` : s.claimedTime ? `, claimed ${s.claimedTime}` : '';
  const reason = s.reason ? `, reason "${s.reason}"` : '';
  const trust = s.chain.anchor ? `, chain to ${s.chain.anchor}` : '';
  const revocation = `, revocation ${s.revocation}${s.revocationSource ? ` (${s.revocationSource})` : ''}`;
  const judged = `, judged at ${verdict.judgedAt} (${verdict.judgedAtFrom})`;
  return `${indication}${why} ${who.replace(/\s+/g, ' ')}${when}${reason}${trust}${revocation}${judged}`;
}
