import type { SignatureBaseline } from '../../core/schemas/signature-baseline.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import type { FinishOptions } from './signing-options.js';

export interface BaselinePlan {
  baseline: SignatureBaseline;
  /** Present from B-T on. */
  timestampClient: TimestampClient | undefined;
  longTerm: boolean;
  archiveTimestamp: boolean;
}

/** What finish does for the requested level; a timestamped level without a timestamp client is a caller mistake. */
export function baselinePlan(options: Pick<FinishOptions, 'baseline' | 'timestampClient'>): BaselinePlan {
  const baseline = options.baseline ?? (options.timestampClient ? 'B-T' : 'B-B');
  if (baseline !== 'B-B' && !options.timestampClient) throw new TypeError(`A ${baseline} signature needs a timestampClient`);
  return {
    baseline,
    timestampClient: baseline === 'B-B' ? undefined : options.timestampClient,
    longTerm: baseline === 'B-LT' || baseline === 'B-LTA',
    archiveTimestamp: baseline === 'B-LTA',
  };
}
