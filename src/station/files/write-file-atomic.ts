import { AtomicOutputFile } from './atomic-output-file.js';

/**
 * Writes `data` to `path` so that a crash at any point leaves either the old file or the whole new one (see
 * AtomicOutputFile). With `exclusive`, an existing `path` is never replaced: the call rejects with EEXIST, or with
 * `numberWhenTaken` takes the first free `name (2).ext`, ... With `durable: false`, not fsynced (see
 * AtomicOutputFile). Resolves with the path written.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { mode?: number; exclusive?: boolean; numberWhenTaken?: boolean; durable?: boolean } = {},
): Promise<string> {
  const output = await AtomicOutputFile.create(path, {
    overwrite: !options.exclusive && !options.numberWhenTaken,
    numberWhenTaken: options.numberWhenTaken ?? false,
    ...(options.mode !== undefined ? { mode: options.mode } : {}),
    ...(options.durable !== undefined ? { durable: options.durable } : {}),
  });
  try {
    await output.write(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    return await output.commit();
  } catch (error) {
    await output.abort();
    throw error;
  }
}
