import { AtomicOutputFile } from './atomic-output-file.js';

/**
 * Writes `data` to `path` so that a crash at any point leaves either the old file or the whole new one (see
 * AtomicOutputFile). With `exclusive`, an existing `path` is never replaced: the call rejects with EEXIST. With
 * `durable: false`, not fsynced (see AtomicOutputFile).
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { mode?: number; exclusive?: boolean; durable?: boolean } = {}): Promise<void> {
  const output = await AtomicOutputFile.create(path, {
    overwrite: !options.exclusive,
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    ...(options.durable !== undefined ? { durable: options.durable } : {}),
  });
  try {
    await output.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    await output.commit();
  } catch (error) {
    await output.abort();
    throw error;
  }
}
