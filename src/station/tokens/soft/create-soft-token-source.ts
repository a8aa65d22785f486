import type { Clock } from '../../ports/clock.js';
import { systemClock } from '../../ports/clock.js';
import type { Token, TokenSource } from '../token.js';
import { SoftToken } from './soft-token.js';
import type { SoftTokenStore } from './soft-token-store.js';

/**
 * The station's own store as a token source: one token, present while the store holds at least one imported
 * key (an empty store is not something the user can sign with, so it is not listed).
 */
export function createSoftTokenSource(store: SoftTokenStore, clock: Clock = systemClock): TokenSource {
  const token = new SoftToken(store, clock);
  const listeners = new Set<() => void>();
  let hasKeys = false;
  let unsubscribe: (() => void) | undefined;
  const refresh = async (): Promise<void> => {
    hasKeys = (await store.list()).length > 0;
    for (const listener of listeners) listener();
  };
  return {
    name: 'Station certificate store',
    start: async () => {
      unsubscribe = store.onChange(() => void refresh());
      await refresh();
    },
    stop: async () => unsubscribe?.(),
    tokens: (): Token[] => (hasKeys ? [token] : []),
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
