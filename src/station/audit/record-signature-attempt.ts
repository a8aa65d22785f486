import type { AuditEntry } from '../../core/schemas/audit-entry.js';
import type { AuditLog } from './audit-log.js';
import { failedAttemptOutcome } from './failed-attempt-outcome.js';

export type SignatureAttempt = Omit<AuditEntry, 'id' | 'time' | 'outcome' | 'detail' | 'files'>;

/**
 * Runs one signature attempt and logs it when it starts and again with its outcome, whatever it is: signed (with
 * `detail` from the result), declined, or failed with the error's code. An attempt killed on the way stays in the
 * log as started. The error is passed on unchanged.
 */
export async function recordSignatureAttempt<T>(
  audit: Pick<AuditLog, 'append'>,
  attempt: SignatureAttempt,
  sign: () => Promise<T>,
  detailOf: (result: T) => string | null = () => null,
): Promise<T> {
  const started = await audit.append({ ...attempt, outcome: 'started', detail: null });
  let result: T;
  try {
    result = await sign();
  } catch (error) {
    await audit.append({ ...attempt, ...failedAttemptOutcome(error) }, started);
    throw error;
  }
  await audit.append({ ...attempt, outcome: 'signed', detail: detailOf(result) }, started);
  return result;
}
