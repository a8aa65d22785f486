import { Database } from '../../../src/station/store/database.js';

/**
 * Holds the SQLite write lock on `path` from another connection for `ms`, longer than the station's busy timeout
 * (5 s) makes its writes fail with SQLITE_BUSY. Resolves once the lock is held; `released` once it is given back.
 */
export async function holdWriteLock(path: string, ms: number): Promise<{ released: Promise<void> }> {
  const blocker = await Database.open(path, []);
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const transaction = blocker.transaction(() => {
    holding();
    return new Promise<void>((release) => setTimeout(release, ms));
  });
  await held;
  return { released: transaction.finally(() => blocker.close()) };
}
