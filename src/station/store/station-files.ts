import { join } from 'node:path';

/**
 * The files a station keeps in its data directory, by role. `created` is written once the first start has made the
 * store, the vault's master key and the station id: from then on a missing or empty store means lost data, never a
 * new station.
 */
export function stationFiles(dataDir: string): { store: string; lock: string; created: string; keyFile: string } {
  return {
    store: join(dataDir, 'station.sqlite'),
    lock: join(dataDir, 'station.lock'),
    created: join(dataDir, 'station-created'),
    keyFile: join(dataDir, 'master-key.enc.json'),
  };
}
