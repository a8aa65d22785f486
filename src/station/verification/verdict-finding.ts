import type { Indication, SubIndication } from '../../core/schemas/verification-report.js';

/** One check's outcome that is not a pass: the indication and sub-indication it leads to and why, in words. */
export interface VerdictFinding {
  indication: Exclude<Indication, 'TOTAL-PASSED'>;
  subIndication: SubIndication;
  reason: string;
  /** What a person can do about it, when anything. */
  advice?: string;
}
