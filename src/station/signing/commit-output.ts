import type { AtomicOutputFile } from '../files/atomic-output-file.js';
import { OutputExistsError } from './signing-errors.js';

/** Commits a signed output; a name taken since checkOutputPath (link(2) says EEXIST) is the same refusal. */
export async function commitOutput(output: AtomicOutputFile): Promise<void> {
  try {
    await output.commit();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new OutputExistsError(output.target);
    throw error;
  }
}
