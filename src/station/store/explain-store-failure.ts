import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StationError } from '../../core/errors/station-error.js';
import { megabytes } from '../files/megabytes.js';

/** What the store needs free to open, migrate and take a first write: asked of the person, checked on failure. */
export const STORE_FREE_BYTES_NEEDED = 16 * 1024 * 1024;

const DISK_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR', 'ENOSPC']);
const DAMAGE_CODES = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT']);

/**
 * Turns SQLite's words for a full disk or a damaged file ("SQLITE_IOERR: disk I/O error") into what a person can
 * act on: which file, how much space, what to do. Any other failure is returned unchanged.
 */
export async function explainStoreFailure(path: string, error: unknown): Promise<unknown> {
  const code = codeOf(error);
  if (code === undefined) return error;
  if (DISK_CODES.has(code)) {
    const free = await freeBytes(dirname(path));
    if (free !== undefined && free < STORE_FREE_BYTES_NEEDED) {
      return new StationError(
        'ERR_STORE_DISK_FULL',
        `The disk holding ${path} is full (${megabytes(free)} free; the store needs at least ${megabytes(STORE_FREE_BYTES_NEEDED)}). ` +
          'Free space on it, or choose another --data-dir.',
        { status: 507, retriable: true, cause: error, details: { path, freeBytes: free, neededBytes: STORE_FREE_BYTES_NEEDED } },
      );
    }
  }
  if (DAMAGE_CODES.has(code)) {
    return new StationError(
      'ERR_STORE_DAMAGED',
      `The store ${path} is damaged (${code}). Restore your last backup with \`signing-station restore FILE\`, or start a new station ` +
        'in this directory with `signing-station reset` (the damaged files are kept aside); see docs/operations.md.',
      { status: 500, cause: error, details: { path } },
    );
  }
  return error;
}

/** The sqlite3 or errno code of `error` or of the error it wraps (StoreError keeps SQLite's as its cause). */
function codeOf(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && !code.startsWith('ERR_')) return code;
  }
  return undefined;
}

async function freeBytes(dir: string): Promise<number | undefined> {
  const stats = await statfs(dir).catch(() => undefined);
  return stats ? stats.bavail * stats.bsize : undefined;
}
