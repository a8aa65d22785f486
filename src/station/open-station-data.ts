import { access, constants, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StationError } from '../core/errors/station-error.js';
import type { StationConfig } from './config/station-config.js';
import type { KeyStore } from './ports/key-store.js';
import { Database } from './store/database.js';
import { stationMigrations } from './store/station-migrations.js';
import { StationSettings } from './store/station-settings.js';
import { SecretVault } from './keychain/secret-vault.js';
import { ClientRegistry } from './clients/client-registry.js';
import { SigningSessions } from './sessions/signing-sessions.js';
import { AuditLog } from './audit/audit-log.js';
import { systemClock, type Clock } from './ports/clock.js';
import { restrictToOwner } from './files/restrict-to-owner.js';

/** The station's persistent state, opened by the server and by CLI commands that work offline. */
export interface StationData {
  readonly dataDir: string;
  readonly database: Database;
  readonly settings: StationSettings;
  readonly vault: SecretVault;
  readonly clients: ClientRegistry;
  readonly sessions: SigningSessions;
  readonly audit: AuditLog;
  close(): Promise<void>;
}

export async function openStationData(config: Pick<StationConfig, 'dataDir'>, keyStore: KeyStore, clock: Clock = systemClock): Promise<StationData> {
  const { dataDir } = config;
  await ensureWritableDirectory(dataDir);
  const database = await Database.open(join(dataDir, 'station.sqlite'), stationMigrations, clock);
  try {
    await restrictToOwner(dataDir);
    const settings = new StationSettings(database);
    const vault = await SecretVault.open(database, keyStore, `master-key:${await settings.stationId()}`, clock);
    const clients = new ClientRegistry(database, vault, clock);
    return {
      dataDir,
      database,
      settings,
      vault,
      clients,
      sessions: new SigningSessions(database, dataDir, clock),
      audit: new AuditLog(database, clock),
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function ensureWritableDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await access(dir, constants.W_OK | constants.R_OK | constants.X_OK);
  } catch (cause) {
    throw new StationError(
      'ERR_CONFIG_DATA_DIR_UNWRITABLE',
      `The data directory ${dir} cannot be created or written (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message}). ` +
        'Choose another with --data-dir or fix its permissions.',
      { status: 500, cause },
    );
  }
}
