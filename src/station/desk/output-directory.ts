import { constants } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { extname, join } from 'node:path';
import { numberedFileName } from '../files/numbered-file-name.js';
import { writeFileAtomic } from '../files/write-file-atomic.js';

/** Where the station window saves what it makes: a folder the user finds in their documents. */
export function defaultOutputDirectory(): string {
  return join(homedir(), 'Documents', 'Signing Station');
}

/** How many "name (n).ext" variants are tried before giving up: a folder is not expected to hold that many. */
const MAX_VARIANTS = 1000;

/**
 * Saves into the output directory under `fileName`, or "name (2).ext" and so on when that is taken: an existing
 * file (an original, an earlier result) is never replaced. Returns the path written.
 */
export async function saveWithoutOverwriting(directory: string, fileName: string, write: (path: string) => Promise<void>): Promise<string> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const extension = extname(fileName);
  const stem = fileName.slice(0, fileName.length - extension.length);
  for (let n = 1; n <= MAX_VARIANTS; n++) {
    const path = join(directory, numberedFileName(stem, extension, n));
    try {
      await write(path);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(`${directory} already holds ${MAX_VARIANTS} files named like ${fileName}`);
}

export const copyExclusive = (from: string) => (to: string): Promise<void> => copyFile(from, to, constants.COPYFILE_EXCL);
export const writeExclusive = (bytes: Uint8Array) => async (to: string): Promise<void> => {
  await writeFileAtomic(to, bytes, { exclusive: true, mode: 0o600 });
};
