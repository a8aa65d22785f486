import { isStationError } from '../../core/errors/station-error.js';
import type { AuditEntry } from '../../core/schemas/audit-entry.js';

/** The codes of a signature the person chose not to make (cancelled the PIN prompt, declined consent). */
const DECLINED_CODES: ReadonlySet<string> = new Set(['ERR_TOKEN_USER_CANCELLED', 'ERR_SIGNING_DECLINED']);

/** How a signature attempt that ended in `error` is logged: declined when the person chose so, else failed, with the error's code. */
export function failedAttemptOutcome(error: unknown): Pick<AuditEntry, 'outcome' | 'detail'> {
  const code = isStationError(error) ? error.code : 'ERR_INTERNAL';
  return { outcome: DECLINED_CODES.has(code) ? 'declined' : 'failed', detail: code };
}
