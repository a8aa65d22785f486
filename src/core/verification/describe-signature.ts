import type { SignatureVerification } from '../schemas/verification-report.js';

/**
 * One line a person can read, the same in the CLI and the window: verdict, who, when, how, and the first reason it
 * fails.
 */
export function describeSignature(s: SignatureVerification): string {
  const verdict = s.valid ? 'VALID' : 'INVALID';
  const who = s.kind === 'RFC 3161 timestamp' ? `timestamp by ${s.signer}` : `${s.kind} ${s.level ?? ''} signature by ${s.signer ?? 'unknown signer'}`;
  const when = s.timestamp ? `, timestamped ${s.timestamp.time}` : s.claimedTime ? `, claimed ${s.claimedTime}` : '';
  const reason = s.reason ? `, reason "${s.reason}"` : '';
  const trust = s.chain.anchor ? `, chain to ${s.chain.anchor}` : '';
  const why = s.problems.length ? `: ${s.problems[0]}` : '';
  return `${verdict} ${who.replace(/\s+/g, ' ')}${when}${reason}${trust}, revocation ${s.revocation}${why}`;
}
