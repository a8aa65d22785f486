import { PENDING_STATUSES, type ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import { ClientError } from './client-error.js';
import type { ModuleRun } from './module-run.js';
import { NetworkError } from './transport.js';

export interface PollRules {
  intervalMs: number;
  maxDurationMs: number;
}

/** How many failed calls in one flow are taken for a network blip before the flow fails. */
export const TOLERATED_NETWORK_ERRORS = 3;

export const SIGNING_POLL: PollRules = { intervalMs: 2_000, maxDurationMs: 120_000 };
export const IFRAME_SIGNING_POLL: PollRules = { intervalMs: 2_000, maxDurationMs: 360_000 };
export const IDENTIFICATION_POLL: PollRules = { intervalMs: 1_000, maxDurationMs: 120_000 };

/**
 * Calls until the answer is no longer RUNNING or IN_PROGRESS, as the published client does: up to three network
 * errors are retried after the interval, and the flow fails once the maximum duration has passed.
 */
export async function pollUntilDone(call: () => Promise<ServiceAnswer>, rules: PollRules, run: ModuleRun, onTry?: (answer: ServiceAnswer) => void): Promise<ServiceAnswer> {
  const deadline = Date.now() + rules.maxDurationMs;
  let networkErrors = 0;
  for (;;) {
    let answer: ServiceAnswer | undefined;
    try {
      answer = await call();
    } catch (error) {
      if (!(error instanceof NetworkError) || ++networkErrors > TOLERATED_NETWORK_ERRORS) throw error;
    }
    if (answer) {
      onTry?.(answer);
      if (!(PENDING_STATUSES as readonly unknown[]).includes(answer.status)) return answer;
    }
    if (Date.now() + rules.intervalMs > deadline) throw new ClientError('ERR_CLIENT_TIMEOUT', `No final answer within ${rules.maxDurationMs / 1000} s.`);
    await run.sleep(rules.intervalMs);
  }
}
