import type { AtomicOutputFile } from '../files/atomic-output-file.js';
import { OutputExistsError } from './signing-errors.js';

/** Commits a signed output and gives the path it took; a name taken since checkOutputPath (EEXIST) is the same refusal. */
export async function commitOutput(output: AtomicOutputFile): Promise<string> {
  try {
    return await output.commit();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new OutputExistsError(output.target);
    throw error;
  }
}
