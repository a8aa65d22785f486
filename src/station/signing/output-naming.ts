import type { AtomicOutputOptions } from '../files/atomic-output-file.js';

/** How a signed output takes its name, from the caller's options: refuse a taken name unless told otherwise. */
export function outputNaming(options: { overwrite?: boolean; numberWhenTaken?: boolean }): Required<AtomicOutputOptions> {
  return { overwrite: options.overwrite ?? false, numberWhenTaken: options.numberWhenTaken ?? false };
}
