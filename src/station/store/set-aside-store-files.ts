import { access, mkdir, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { stationFiles } from './station-files.js';

/**
 * Moves the store, its WAL files, the creation marker and the passphrase key file out of the way, into a new
 * folder `<why>-<time>` of the data directory: reset and restore never delete what they replace. Returns that
 * folder, or undefined when there was nothing to move. The caller holds the directory's lock.
 */
export async function setAsideStoreFiles(dataDir: string, why: 'reset' | 'replaced', keep: { keyFile: boolean } = { keyFile: false }): Promise<string | undefined> {
  const files = stationFiles(dataDir);
  const candidates = [files.store, `${files.store}-wal`, `${files.store}-shm`, files.created, ...(keep.keyFile ? [] : [files.keyFile])];
  const present = (await Promise.all(candidates.map((path) => access(path).then(() => path, () => undefined)))).filter((path) => path !== undefined);
  if (present.length === 0) return undefined;
  const aside = join(dataDir, `${why}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(aside, { mode: 0o700 });
  for (const path of present) await rename(path, join(aside, basename(path)));
  return aside;
}
