import pkcs11js from 'pkcs11js';
import { PinIncorrectError, PinLockedError, TokenError, TokenRemovedError, TokenUnavailableError, UserCancelledError } from '../token-errors.js';

/** The CKR_* code of a pkcs11js error, or undefined when the error did not come from the module. */
export function pkcs11ReturnValue(error: unknown): number | undefined {
  return error instanceof pkcs11js.Pkcs11Error ? error.code : undefined;
}

export function isReturnValue(error: unknown, ...codes: number[]): boolean {
  const code = pkcs11ReturnValue(error);
  return code !== undefined && codes.includes(code);
}

const REMOVED = [
  pkcs11js.CKR_TOKEN_NOT_PRESENT,
  pkcs11js.CKR_DEVICE_REMOVED,
  pkcs11js.CKR_SESSION_HANDLE_INVALID,
  pkcs11js.CKR_SESSION_CLOSED,
  pkcs11js.CKR_SLOT_ID_INVALID,
  pkcs11js.CKR_CRYPTOKI_NOT_INITIALIZED,
];

/** True when the error means the token (or the module's view of it) is gone and the slot list must be re-read. */
export function isRemoval(error: unknown): boolean {
  return isReturnValue(error, ...REMOVED);
}

/**
 * Maps a module error to the station's token errors once, at the bridge boundary. `finalTry` is what the token
 * said after a wrong PIN: PKCS#11 gives only the low/final/locked flags, so retries are known only at 1.
 */
export function toTokenError(error: unknown, context: { tokenLabel: string; finalTry?: boolean }): TokenError {
  if (error instanceof TokenError) return error;
  const code = pkcs11ReturnValue(error);
  const options = { cause: error };
  switch (code) {
    case pkcs11js.CKR_PIN_INCORRECT:
      return new PinIncorrectError(context.finalTry ? 1 : undefined, options);
    case pkcs11js.CKR_PIN_LOCKED:
      return new PinLockedError(options);
    case pkcs11js.CKR_PIN_LEN_RANGE:
      return new TokenError('ERR_TOKEN_PIN_FORMAT', `The PIN has the wrong length for ${context.tokenLabel}; no try was used.`, {
        status: 400,
        retriable: true,
        ...options,
      });
    case pkcs11js.CKR_PIN_EXPIRED:
      return new TokenError('ERR_TOKEN_PIN_EXPIRED', `The PIN of ${context.tokenLabel} has expired: change it with the token's own tool.`, {
        status: 403,
        ...options,
      });
    case pkcs11js.CKR_USER_PIN_NOT_INITIALIZED:
      return new TokenError('ERR_TOKEN_NOT_INITIALIZED', `${context.tokenLabel} has no user PIN set yet: initialise it with the token's own tool.`, {
        status: 409,
        ...options,
      });
    case pkcs11js.CKR_FUNCTION_CANCELED:
      return new UserCancelledError();
    case pkcs11js.CKR_MECHANISM_INVALID:
    case pkcs11js.CKR_MECHANISM_PARAM_INVALID:
    case pkcs11js.CKR_KEY_FUNCTION_NOT_PERMITTED:
      // The key's CKA_ALLOWED_MECHANISMS or the module refuse this scheme: asking again changes nothing.
      return new TokenError('ERR_TOKEN_MECHANISM_REFUSED', `${context.tokenLabel} does not let this key sign with the mechanism asked for (${error instanceof Error ? error.message : String(error)}).`, {
        status: 409,
        ...options,
      });
    default:
      if (isRemoval(error)) return new TokenRemovedError(options);
      return new TokenUnavailableError(
        `${context.tokenLabel} failed: ${error instanceof Error ? error.message : String(error)}`,
        options,
      );
  }
}
