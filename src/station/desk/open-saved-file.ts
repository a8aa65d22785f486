import { constants } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '../../core/errors/not-found-error.js';

/**
 * Opens a file the window saved, by its plain name in the output folder (the route's schema refuses any folder
 * part), for the window to download: only a regular file directly in that folder, never a symlink planted there
 * (O_NOFOLLOW). Anything else is "not found", saying nothing about what is there.
 */
export async function openSavedFile(outputDir: string, name: string): Promise<{ handle: FileHandle; size: number }> {
  const missing = (): NotFoundError => new NotFoundError('ERR_DESK_SAVED_NOT_FOUND', `No file named ${name} in the output folder.`);
  const folder = await realpath(outputDir).catch(() => undefined);
  if (!folder) throw missing();
  const handle = await open(join(folder, name), constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (!handle) throw missing();
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw missing();
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
