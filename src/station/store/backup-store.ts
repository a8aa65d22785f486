import { stat } from 'node:fs/promises';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { AtomicOutputFile } from '../files/atomic-output-file.js';
import type { Database } from './database.js';

/**
 * Writes a consistent copy of the store to `file` while the station may be running: SQLite copies it inside one
 * read transaction into a staging file, which takes the name only if nothing has it (an existing file is never
 * replaced).
 */
export async function backupStore(database: Database, file: string): Promise<void> {
  if (await stat(file).catch(() => undefined)) throw new InvalidInputError(`${file} exists: choose a new name for the backup.`, { file: ['exists'] });
  const output = await AtomicOutputFile.create(file, { mode: 0o600 });
  try {
    await database.backupTo(output.tempPath);
    await output.commit();
  } catch (error) {
    await output.abort();
    throw error;
  }
}
