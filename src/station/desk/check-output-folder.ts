import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { StationError } from '../../core/errors/station-error.js';

/**
 * Checks a folder the user chose for the window's results, before it is stored: it exists, is a directory, belongs
 * to the user the station runs as (so a symlink, or a shared folder, cannot send the user's signed documents into
 * someone else's directory) and that user can write in it. Returns its real path, the one stored and shown.
 */
export async function checkOutputFolder(path: string): Promise<string> {
  const refuse = (code: 'ERR_DESK_OUTPUT_NOT_FOUND' | 'ERR_DESK_OUTPUT_NOT_DIRECTORY' | 'ERR_DESK_OUTPUT_NOT_WRITABLE' | 'ERR_DESK_OUTPUT_NOT_OWN', why: string): StationError =>
    new StationError(code, `${path} ${why}`, { status: 400, details: { path } });
  const real = await realpath(resolve(path)).catch(() => undefined);
  if (real === undefined) throw refuse('ERR_DESK_OUTPUT_NOT_FOUND', 'does not exist.');
  const stats = await stat(real);
  if (!stats.isDirectory()) throw refuse('ERR_DESK_OUTPUT_NOT_DIRECTORY', 'is not a folder.');
  // Windows reports no owners here (uid 0 for all); its folders' ACLs are checked by the write test below.
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) throw refuse('ERR_DESK_OUTPUT_NOT_OWN', `belongs to another user (uid ${stats.uid}).`);
  const writable = await access(real, constants.W_OK | constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!writable) throw refuse('ERR_DESK_OUTPUT_NOT_WRITABLE', 'cannot be written by the station.');
  return real;
}
