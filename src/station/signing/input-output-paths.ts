import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AtomicOutputOptions } from '../files/atomic-output-file.js';
import { OutputExistsError } from './signing-errors.js';

/**
 * Refuses an output that is the input itself (by path or by inode), whatever `overwrite` says, and an existing
 * output unless `overwrite` or `numberWhenTaken` (another name is taken then). Checked early so no signature or timestamp is spent on a doomed write; the final
 * link(2) in AtomicOutputFile still closes the race.
 */
export async function checkOutputPath(inputPath: string, outputPath: string, naming: AtomicOutputOptions): Promise<void> {
  const input = await realpath(inputPath);
  if (resolve(outputPath) === input) throw new OutputExistsError(outputPath);
  const [a, b] = await Promise.all([stat(input), stat(outputPath).catch(() => undefined)]);
  if (b && ((a.ino === b.ino && a.dev === b.dev) || !(naming.overwrite || naming.numberWhenTaken))) throw new OutputExistsError(outputPath);
}
