import type { AuditEntry } from '../../core/schemas/audit-entry.js';
import type { AuditLog } from './audit-log.js';
import { failedAttemptOutcome } from './failed-attempt-outcome.js';

export type SignatureAttempt = Omit<AuditEntry, 'id' | 'time' | 'outcome' | 'detail' | 'files'>;

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
    await audit.append({ ...attempt, ...failedAttemptOutcome(error) });
    throw error;
  }
  await audit.append({ ...attempt, outcome: 'signed', detail: detailOf(result) });
  return result;
}
