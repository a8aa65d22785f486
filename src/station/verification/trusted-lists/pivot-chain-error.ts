import type { PivotStep } from '../../../core/schemas/trust-api.js';
import { TrustListError } from './trust-list-error.js';

/** A list of lists refused while following its pivots, with the step that failed (for the window's own words). */
export class PivotChainError extends TrustListError {
  readonly step: PivotStep;

  constructor(step: PivotStep, message: string, cause?: unknown) {
    super('ERR_TRUST_LIST_PIVOT_FAILED', message, { retriable: step.step === 'unavailable', ...(cause === undefined ? {} : { cause }) });
    this.step = step;
  }
}
