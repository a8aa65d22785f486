import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StationError } from '../../core/errors/station-error.js';
import { megabytes } from './megabytes.js';

/**
 * A write of `out` that ran out of space (ENOSPC, or a quota) as something a person can act on: the path, the space
 * left there and about how much the file needs. Any other failure is returned unchanged.
 */
export async function explainOutputFailure(error: unknown, out: string, neededBytes: number): Promise<unknown> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return error;
  const stats = await statfs(dirname(out)).catch(() => undefined);
  const free = stats ? `${megabytes(stats.bavail * stats.bsize)} free` : 'no space left';
  return new StationError(
    'ERR_SIGNING_DISK_FULL',
    `Cannot write ${out}: its disk is full (${free}; the signed file needs about ${megabytes(neededBytes)}). Free space there, or choose another --out.`,
    { status: 507, retriable: true, cause: error, details: { path: out, neededBytes } },
  );
}
