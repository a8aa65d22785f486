import { mkdir, readFile } from 'node:fs/promises';
import { claimDataDirectory } from '../claim-data-directory.js';
import { setAsideStoreFiles } from './set-aside-store-files.js';
import { stationFiles } from './station-files.js';

/**
 * Makes the data directory start as a new station: its store (and its passphrase key file, when that no longer
 * reads) goes aside, never deleted, while no station runs there. Returns the folder they went to.
 */
export async function resetStore(dataDir: string): Promise<string | undefined> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = await claimDataDirectory(dataDir, 'station');
  try {
    // A readable key file keeps the master keys of earlier stations, which their set-aside stores need to be restored.
    return await setAsideStoreFiles(dataDir, 'reset', { keyFile: await readsAsJson(stationFiles(dataDir).keyFile) });
  } finally {
    await lock?.release();
  }
}

async function readsAsJson(path: string): Promise<boolean> {
  try {
    JSON.parse(await readFile(path, 'utf8'));
    return true;
  } catch {
    return false;
  }
}
