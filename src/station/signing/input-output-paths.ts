import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { OutputExistsError } from './signing-errors.js';

/** Refuses an output that is the input itself (by path or by inode), whatever `overwrite` says. */
export async function assertOutputIsNotInput(inputPath: string, outputPath: string): Promise<void> {
  const input = await realpath(inputPath);
  if (resolve(outputPath) === input) throw new OutputExistsError(outputPath);
  const [a, b] = await Promise.all([stat(input), stat(outputPath).catch(() => undefined)]);
  if (b && a.ino === b.ino && a.dev === b.dev) throw new OutputExistsError(outputPath);
}
