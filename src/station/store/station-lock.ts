import sqlite3 from 'sqlite3';
import { StoreError } from './store-error.js';

/**
 * The lock that makes one station per data directory: a small SQLite file opened in EXCLUSIVE locking mode.
 * SQLite takes the OS lock on the open file (fcntl on POSIX, LockFileEx on Windows), which the kernel drops when
 * the holder dies however it dies, so a crash never leaves it stuck and there is no PID to guess about; and it
 * needs no dependency beyond the store's own.
 */
export class StationLock {
  readonly #db: sqlite3.Database;

  private constructor(db: sqlite3.Database) {
    this.#db = db;
  }

  /** The lock, or undefined when another process (or another connection of this one) holds it now. */
  static async tryAcquire(path: string): Promise<StationLock | undefined> {
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const opened = new sqlite3.Database(path, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE, (error) =>
        error ? reject(new StoreError(`Cannot open the lock file ${path}: ${error.message}`, error)) : resolve(opened),
      );
    });
    db.configure('busyTimeout', 0);
    // An exclusive transaction in EXCLUSIVE locking mode keeps its lock after COMMIT, until the connection closes.
    // The file holds no data, so it needs no journal (and leaves no journal file beside it).
    const error = await new Promise<Error | null>((resolve) => db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = OFF; BEGIN EXCLUSIVE; COMMIT;', resolve));
    if (!error) return new StationLock(db);
    await new Promise<void>((resolve) => db.close(() => resolve()));
    if ((error as NodeJS.ErrnoException).code === 'SQLITE_BUSY') return undefined;
    throw new StoreError(`Cannot lock ${path}: ${error.message}`, error);
  }

  release(): Promise<void> {
    return new Promise((resolve, reject) => this.#db.close((error) => (error ? reject(new StoreError(`Cannot release the station lock: ${error.message}`, error)) : resolve())));
  }
}
