import { isStationError } from '../../core/errors/station-error.js';
import type { StationErrorCode } from '../../core/errors/station-error-codes.js';

/** The codes of a signature the person chose not to make (cancelled the PIN prompt, declined consent). */
const DECLINED_CODES: ReadonlySet<StationErrorCode> = new Set(['ERR_TOKEN_USER_CANCELLED', 'ERR_SIGNING_DECLINED']);

/**
 * How a signature attempt that ended in `error` is logged: declined when the person chose so, cancelled when the
 * page that asked went away or cancelled, else failed, with the error's code.
 */
export function failedAttemptOutcome(error: unknown): { outcome: 'declined' | 'cancelled' | 'failed'; detail: StationErrorCode } {
  const code: StationErrorCode = isStationError(error) ? error.code : 'ERR_INTERNAL';
  if (code === 'ERR_SIGNING_REQUESTER_GONE') return { outcome: 'cancelled', detail: code };
  return { outcome: DECLINED_CODES.has(code) ? 'declined' : 'failed', detail: code };
}
