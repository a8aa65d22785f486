import type { Indication } from '../schemas/verification-report.js';

const RANK: Record<Indication, number> = { 'TOTAL-PASSED': 0, INDETERMINATE: 1, 'TOTAL-FAILED': 2 };

/** The indication of several verdicts together: failed over indeterminate over passed; null for none. */
export function worstIndication(indications: readonly Indication[]): Indication | null {
  return indications.reduce<Indication | null>((worst, next) => (worst === null || RANK[next] > RANK[worst] ? next : worst), null);
}
