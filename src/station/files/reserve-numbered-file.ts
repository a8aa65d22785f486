import { open } from 'node:fs/promises';
import { numberedFileName } from './numbered-file-name.js';

/**
 * Reserves the first free name of `stem + extension`, `stem (2) + extension`, … by creating it empty and
 * exclusively (O_EXCL): two runs at once take two names, and the finished file later replaces the reservation by
 * rename. Undefined when the first 999 names are all taken.
 */
export async function reserveNumberedFile(stem: string, extension: string): Promise<string | undefined> {
  for (let n = 1; n < 1000; n += 1) {
    const candidate = numberedFileName(stem, extension, n);
    const reserved = await open(candidate, 'wx', 0o644).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (!reserved) continue;
    await reserved.close();
    return candidate;
  }
  return undefined;
}
