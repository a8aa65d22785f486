import pkcs11js from 'pkcs11js';
import type { PinStatus } from '../../../core/schemas/token-description.js';

/** PKCS#11 tells only whether the user PIN is low, on its final try or locked, never the count itself. */
export function pinStatusFromFlags(flags: number): PinStatus {
  const locked = (flags & pkcs11js.CKF_USER_PIN_LOCKED) !== 0;
  const finalTry = !locked && (flags & pkcs11js.CKF_USER_PIN_FINAL_TRY) !== 0;
  return {
    ...(locked ? { retriesLeft: 0 } : finalTry ? { retriesLeft: 1 } : {}),
    countLow: (flags & pkcs11js.CKF_USER_PIN_COUNT_LOW) !== 0,
    finalTry,
    locked,
    pinpad: (flags & pkcs11js.CKF_PROTECTED_AUTHENTICATION_PATH) !== 0,
  };
}
