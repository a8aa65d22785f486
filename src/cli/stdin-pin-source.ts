import type { PinSource } from '../station/tokens/token.js';
import { TokenError } from '../station/tokens/token-errors.js';

/**
 * Hands the token a fresh copy of the PIN read from stdin per request (the token zeroes each copy; the caller zeroes
 * `pin` when done). No PIN given means none can be typed here: the token's request fails saying how to give one.
 */
export function stdinPinSource(pin: Buffer | undefined): PinSource {
  return async () => {
    if (!pin) {
      throw new TokenError('ERR_TOKEN_PIN_REQUIRED', 'This token needs its PIN: pass it on stdin with --pin-stdin.', { status: 401 });
    }
    return new Uint8Array(pin);
  };
}
