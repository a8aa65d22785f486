import { mkdir, readFile } from 'node:fs/promises';
import { StationError } from '../../core/errors/station-error.js';
import type { KeyStore } from '../ports/key-store.js';
import { writeFileAtomic } from '../files/write-file-atomic.js';
import { claimDataDirectory } from '../claim-data-directory.js';
import { readBackupStationId } from './read-backup-station-id.js';
import { setAsideStoreFiles } from './set-aside-store-files.js';
import { stationFiles } from './station-files.js';

/**
 * Puts a backup in place of the data directory's store, while no station runs there (the directory's lock is
 * held throughout). Refused before anything moves when the file is no backup, or when the key store has no master
 * key for it (its secrets could never be read). The replaced files go aside; returns where and the station id.
 */
export async function restoreStore(dataDir: string, file: string, keyStore: KeyStore): Promise<{ stationId: string; replaced: string | undefined }> {
  const stationId = await readBackupStationId(file);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const lock = await claimDataDirectory(dataDir, 'station');
  try {
    if (!(await keyStore.get(`master-key:${stationId}`))) {
      throw new StationError(
        'ERR_VAULT_MASTER_KEY_MISSING',
        `${keyStore.description} has no master key for station ${stationId}, the station in ${file}: its secrets could not be read. ` +
          'Restore on the machine and user account the backup was made on (or with the key file it was made with).',
        { status: 500 },
      );
    }
    const files = stationFiles(dataDir);
    const replaced = await setAsideStoreFiles(dataDir, 'replaced', { keyFile: true });
    await writeFileAtomic(files.store, await readFile(file), { mode: 0o600 });
    await writeFileAtomic(files.created, `${stationId}\n`, { mode: 0o600 });
    return { stationId, replaced };
  } finally {
    await lock?.release();
  }
}
