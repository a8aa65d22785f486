import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { stagingWriterPid } from './staging-file-name.js';

/**
 * Deletes the staging files in `directory` whose writer is gone (a run killed mid-write leaves one the size of the
 * document). A file whose writer is alive, this process included, is never touched: it may be mid-write. A reused
 * pid only delays the cleanup to a later run. Returns the names removed.
 */
export async function removeStaleStagingFiles(directory: string): Promise<string[]> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const stale = names.filter((name) => {
    const pid = stagingWriterPid(name);
    return pid !== undefined && !isAlive(pid);
  });
  const removed = await Promise.all(stale.map((name) => unlink(join(directory, name)).then(() => name, () => undefined)));
  return removed.filter((name): name is string => name !== undefined);
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, owned by someone else.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
