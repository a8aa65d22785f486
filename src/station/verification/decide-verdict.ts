import type { Verdict } from '../../core/schemas/verification-report.js';
import type { VerdictFinding } from './verdict-finding.js';

/**
 * The verdict from the findings of every check, given in the order ETSI EN 319 102-1 runs its building blocks
 * (format, signing certificate, integrity, chain, revocation, algorithms, timestamp): a failure anywhere decides
 * over anything indeterminate (a changed document is failed even when its issuer is unknown); otherwise the first
 * indeterminate finding decides; with none the signature passed.
 */
export function decideVerdict(findings: readonly (VerdictFinding | undefined)[], judgedAt: Date, judgedAtFrom: Verdict['judgedAtFrom']): Verdict {
  const present = findings.filter((f): f is VerdictFinding => f !== undefined);
  const deciding = present.find((f) => f.indication === 'TOTAL-FAILED') ?? present[0];
  const time = { judgedAt: judgedAt.toISOString(), judgedAtFrom };
  if (!deciding) return { indication: 'TOTAL-PASSED', subIndication: null, ...time, reason: 'the signature is intact and its certificate chains to a trusted issuer', advice: null };
  return { indication: deciding.indication, subIndication: deciding.subIndication, ...time, reason: deciding.reason, advice: deciding.advice ?? null };
}
