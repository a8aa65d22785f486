import sqlite3 from 'sqlite3';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';

/**
 * The station id in a backup file, after SQLite's integrity check: opened read-only, so a file that is no backup
 * is refused before anything in the data directory moves, and the backup itself is never written.
 */
export async function readBackupStationId(file: string): Promise<string> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(notABackup(file, error.message)) : resolve(opened)));
  });
  try {
    const get = <Row>(sql: string): Promise<Row | undefined> =>
      new Promise((resolve, reject) => db.get<Row>(sql, (error, row) => (error ? reject(notABackup(file, error.message)) : resolve(row))));
    const check = await get<{ integrity_check: string }>('PRAGMA integrity_check');
    if (check?.integrity_check !== 'ok') throw notABackup(file, `integrity check: ${check?.integrity_check ?? 'no answer'}`);
    const row = await get<{ value: string }>("SELECT value FROM settings WHERE key = 'station_id'");
    if (!row) throw notABackup(file, 'it holds no station id');
    return row.value;
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

function notABackup(file: string, why: string): InvalidInputError {
  return new InvalidInputError(`${file} is not a station backup (${why}): name a file written by \`signing-station backup\`.`, { file: ['not a backup'] });
}
