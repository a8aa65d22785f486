import { link, open, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Writes `data` to `path` so that a crash at any point leaves either the old file or the whole new one:
 * temp file in the same directory, fsync, rename, fsync of the directory.
 * With `exclusive`, an existing `path` is never replaced: the temp file is hard-linked into place, which fails
 * with EEXIST atomically instead of racing a separate existence check.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; exclusive?: boolean } = {},
): Promise<void> {
  const directory = dirname(path);
  const temporary = join(directory, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', options.mode ?? 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    if (options.exclusive) {
      await link(temporary, path);
      await unlink(temporary);
    } else {
      await rename(temporary, path);
    }
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  const dir = await open(directory, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}
