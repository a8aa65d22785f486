import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createStation, type Station, type StationPorts } from '../../../src/station/create-station.js';
import type { StationConfigInput } from '../../../src/station/config/station-config.js';
import { OsKeyStore } from '../../../src/station/keychain/os-key-store.js';

export interface TestStation extends Station {
  dataDir: string;
  /** Closes the station and deletes its data directory. */
  dispose(): Promise<void>;
}

/** A real station on 127.0.0.1:0 with a fresh data directory and the real Secret Service keychain. */
export async function startTestStation(config: Partial<StationConfigInput> = {}, ports: Partial<StationPorts> = {}): Promise<TestStation> {
  const dataDir = config.dataDir ?? (await mkdtemp(join(tmpdir(), 'station-test-')));
  const station = await createStation(
    { port: 0, logLevel: 'silent', ...config, dataDir },
    { keyStore: new OsKeyStore(), logger: pino({ level: 'silent' }), ...ports },
  );
  return Object.assign(station, {
    dataDir,
    dispose: async () => {
      await station.close();
      if (!config.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  });
}
