import { isStationError } from '../../core/errors/station-error.js';
import type { AuditEntry } from '../../core/schemas/audit-entry.js';
import type { AuditLog } from './audit-log.js';

export type SignatureAttempt = Omit<AuditEntry, 'id' | 'time' | 'outcome' | 'detail' | 'files'>;

/** The codes of a signature the person chose not to make (cancelled the PIN prompt, declined consent). */
const DECLINED_CODES: ReadonlySet<string> = new Set(['ERR_TOKEN_USER_CANCELLED', 'ERR_SIGNING_DECLINED']);

/**
 * Runs one signature attempt and logs its outcome, whatever it is: signed (with `detail` from the result),
 * declined, or failed with the error's code. The error is passed on unchanged.
 */
export async function recordSignatureAttempt<T>(
  audit: Pick<AuditLog, 'append'>,
  attempt: SignatureAttempt,
  sign: () => Promise<T>,
  detailOf: (result: T) => string | null = () => null,
): Promise<T> {
  let result: T;
  try {
    result = await sign();
  } catch (error) {
    const code = isStationError(error) ? error.code : 'ERR_INTERNAL';
    await audit.append({ ...attempt, outcome: DECLINED_CODES.has(code) ? 'declined' : 'failed', detail: code });
    throw error;
  }
  await audit.append({ ...attempt, outcome: 'signed', detail: detailOf(result) });
  return result;
}
