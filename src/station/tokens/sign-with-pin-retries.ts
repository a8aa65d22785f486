import type { SignRequest, Token } from './token.js';
import { PinIncorrectError } from './token-errors.js';

/**
 * Signs, asking for the PIN again in the same place after a wrong one: the token's next prompt says the last
 * PIN failed and how many tries are left. Ends with the signature, the user's cancel, or a blocked PIN
 * (PinLockedError); the token itself never retries a PIN on its own.
 */
export async function signWithPinRetries(token: Token, request: SignRequest): Promise<Uint8Array> {
  for (;;) {
    try {
      return await token.sign(request);
    } catch (error) {
      if (!(error instanceof PinIncorrectError)) throw error;
      request.signal?.throwIfAborted();
    }
  }
}
