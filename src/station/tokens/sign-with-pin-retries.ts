import type { PinSource, SignRequest, Token } from './token.js';
import { PinIncorrectError, UserCancelledError } from './token-errors.js';
import { untilAborted } from '../prompts/until-aborted.js';

/**
 * Signs, asking for the PIN again in the same place after a wrong one: the token's next prompt says the last
 * PIN failed and how many tries are left. Ends with the signature, the user's cancel, or a blocked PIN
 * (PinLockedError); the token itself never retries a PIN on its own. A cancel after a wrong PIN carries what the
 * token said of the tries left (`details.pin`), so the page can tell the person. A PIN prompt ends when `signal`
 * aborts even if the prompt does not listen to it.
 */
export async function signWithPinRetries(token: Token, request: SignRequest): Promise<Uint8Array> {
  let asked: Parameters<PinSource>[0] | undefined;
  const pin: PinSource = (pinRequest) => {
    asked = pinRequest;
    return untilAborted(request.pin(pinRequest), request.signal);
  };
  for (;;) {
    try {
      return await token.sign({ ...request, pin });
    } catch (error) {
      if (error instanceof UserCancelledError && asked?.previousAttemptFailed && !request.signal?.aborted) throw cancelledAfterWrongPin(asked);
      if (!(error instanceof PinIncorrectError)) throw error;
      request.signal?.throwIfAborted();
    }
  }
}

function cancelledAfterWrongPin(asked: Parameters<PinSource>[0]): UserCancelledError {
  const pin = { wrong: true, ...(asked.retriesLeft === undefined ? {} : { retriesLeft: asked.retriesLeft }), countLow: asked.countLow ?? false, finalTry: asked.finalTry };
  return new UserCancelledError({ details: { pin } });
}
