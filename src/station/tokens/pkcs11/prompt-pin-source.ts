import type { UserPrompt } from '../../ports/user-prompt.js';
import type { PinSource } from '../token.js';

/**
 * A PinSource that asks through the station's own trusted prompt (native window, or the station UI page when
 * headless): the only place a PIN is ever typed. The bytes go straight to the token, which zeroes them.
 */
export function promptPinSource(prompt: UserPrompt, context: { tokenLabel: string; requester: string; signal?: AbortSignal }): PinSource {
  return (request) =>
    prompt.askPin(
      {
        tokenLabel: context.tokenLabel,
        pinLabel: request.pinLabel,
        ...(request.retriesLeft !== undefined ? { retriesLeft: request.retriesLeft } : {}),
        finalTry: request.finalTry,
        ...(request.countLow ? { countLow: true } : {}),
        previousAttemptFailed: request.previousAttemptFailed,
        requester: context.requester,
      },
      context.signal,
    );
}
