import type { Token } from './token.js';
import { TokenRemovedError } from './token-errors.js';

export interface TokenPresence {
  tokens: () => Promise<Token[]>;
  /** Called after any card, token or reader came or went; returns an unsubscribe function. */
  onTokensChange: (listener: () => void) => () => void;
}

/**
 * `signal`, also aborted with TokenRemovedError as soon as the station sees `token` gone: the prompts held for it
 * (consent, PIN) are withdrawn and the page hears at once, instead of a prompt waiting for a key that is no longer
 * there until its own deadline. `stop()` ends the watch.
 */
export function whileTokenConnected(token: Token, presence: TokenPresence, signal: AbortSignal): { signal: AbortSignal; stop(): void } {
  const removal = new AbortController();
  const stop = presence.onTokensChange(() => {
    void presence.tokens().then(
      (present) => {
        if (!present.some((candidate) => candidate.id === token.id)) removal.abort(new TokenRemovedError());
      },
      () => undefined, // the registry could not list its tokens: the next change asks again
    );
  });
  return { signal: AbortSignal.any([signal, removal.signal]), stop };
}
