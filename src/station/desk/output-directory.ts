import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AtomicOutputFile } from '../files/atomic-output-file.js';
import { writeFileAtomic } from '../files/write-file-atomic.js';

/** Where the station window saves what it makes: a folder the user finds in their documents. */
export function defaultOutputDirectory(): string {
  return join(homedir(), 'Documents', 'Signing Station');
}

/**
 * Saves into the output directory under `fileName`, or "name (2).ext" and so on when that is taken, once the whole
 * file is written (AtomicOutputFile: staged beside, fsynced, claimed by link(2)): an existing file (an original, an
 * earlier result) is never replaced, and an interrupted save leaves no partial file under a real name. Returns the
 * path written.
 */
export async function saveWithoutOverwriting(directory: string, fileName: string, content: { copyOf: string } | { bytes: Uint8Array }): Promise<string> {
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const target = join(directory, fileName);
  if ('bytes' in content) return writeFileAtomic(target, content.bytes, { numberWhenTaken: true, mode: 0o600 });
  const output = await AtomicOutputFile.create(target, { numberWhenTaken: true, mode: 0o600 });
  try {
    for await (const chunk of createReadStream(content.copyOf)) await output.write(chunk as Buffer);
    return await output.commit();
  } catch (error) {
    await output.abort();
    throw error;
  }
}
