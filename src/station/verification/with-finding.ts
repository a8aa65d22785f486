import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import type { VerdictFinding } from './verdict-finding.js';

/**
 * A signature's report with a finding from outside its CMS (a PDF's ByteRange, an ASiC manifest's references)
 * deciding its verdict: a failure always decides; a missing piece only when the signature has not failed itself.
 */
export function withFinding(report: SignatureVerification, finding: VerdictFinding | undefined): SignatureVerification {
  if (!finding || (finding.indication !== 'TOTAL-FAILED' && report.verdict.indication === 'TOTAL-FAILED')) return report;
  const verdict = { ...report.verdict, indication: finding.indication, subIndication: finding.subIndication, reason: finding.reason, advice: null };
  return { ...report, intact: report.intact && finding.indication !== 'TOTAL-FAILED', verdict, problems: [finding.reason, ...report.problems] };
}
