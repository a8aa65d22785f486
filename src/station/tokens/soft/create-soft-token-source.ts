import type { Clock } from '../../ports/clock.js';
import { systemClock } from '../../ports/clock.js';
import type { Token, TokenSource } from '../token.js';
import { SoftToken } from './soft-token.js';
import type { SoftTokenStore } from './soft-token-store.js';

/** The station's own store as a token source: one token, always there, changing when keys are imported or removed. */
export function createSoftTokenSource(store: SoftTokenStore, clock: Clock = systemClock): TokenSource {
  const token = new SoftToken(store, clock);
  return {
    name: 'Station certificate store',
    start: async () => undefined,
    stop: async () => undefined,
    tokens: (): Token[] => [token],
    onChange: (listener) => store.onChange(listener),
  };
}
