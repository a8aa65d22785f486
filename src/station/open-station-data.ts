import { access, constants, mkdir, readFile, stat } from 'node:fs/promises';
import { StationError } from '../core/errors/station-error.js';
import type { StationConfig } from './config/station-config.js';
import type { KeyStore } from './ports/key-store.js';
import { Database } from './store/database.js';
import { stationMigrations } from './store/station-migrations.js';
import { StationSettings } from './store/station-settings.js';
import { stationFiles } from './store/station-files.js';
import { explainStoreFailure } from './store/explain-store-failure.js';
import type { StationLock } from './store/station-lock.js';
import { SecretVault } from './keychain/secret-vault.js';
import { ClientRegistry } from './clients/client-registry.js';
import { SigningSessions } from './sessions/signing-sessions.js';
import { AuditLog } from './audit/audit-log.js';
import { systemClock, type Clock } from './ports/clock.js';
import { restrictToOwner } from './files/restrict-to-owner.js';
import { writeFileAtomic } from './files/write-file-atomic.js';
import { claimDataDirectory, type DirectoryClaim } from './claim-data-directory.js';

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

/**
 * Opens (and on first use creates) the data directory. `claim` 'station' holds the directory's lock until close:
 * one station per directory. The default, for commands, holds it only while a new directory is created.
 */
export async function openStationData(
  config: Pick<StationConfig, 'dataDir'>,
  keyStore: KeyStore,
  clock: Clock = systemClock,
  claim: DirectoryClaim = 'creation',
): Promise<StationData> {
  const { dataDir } = config;
  await ensureWritableDirectory(dataDir);
  const files = stationFiles(dataDir);
  const lock = await claimDataDirectory(dataDir, claim).catch(async (error: unknown) => {
    throw await explainStoreFailure(files.lock, error);
  });
  try {
    const data = await openUnderClaim(dataDir, keyStore, clock);
    if (claim === 'station') return { ...data, close: () => data.close().finally(() => lock?.release()) };
    await lock?.release();
    return data;
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

async function openUnderClaim(dataDir: string, keyStore: KeyStore, clock: Clock): Promise<StationData> {
  const files = stationFiles(dataDir);
  const created = await readCreatedMarker(files.created);
  await refuseLostStore(files.store, created);
  const database = await Database.open(files.store, stationMigrations, clock).catch(async (error: unknown) => {
    throw await explainStoreFailure(files.store, error);
  });
  try {
    await restrictToOwner(dataDir);
    const settings = new StationSettings(database);
    if (created !== undefined) await refuseOtherStore(files.store, created, await settings.get('station_id'));
    const stationId = await settings.stationId();
    const vault = await SecretVault.open(database, keyStore, `master-key:${stationId}`, clock);
    // Store, station id and master key are made: from here on a missing store is lost data, not a first start.
    if (created === undefined) await writeFileAtomic(files.created, `${stationId}\n`, { mode: 0o600 });
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
    throw await explainStoreFailure(files.store, error);
  }
}

/** The station id the directory was created with, or undefined when its creation never finished. */
async function readCreatedMarker(path: string): Promise<string | undefined> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  return text?.trim();
}

/**
 * A store that is missing or empty where the station was created lost its data: starting afresh would drop
 * clients, secrets and the audit log and make a new TSA key without a word. A directory whose first start never
 * finished has no marker, and is created again.
 */
async function refuseLostStore(path: string, created: string | undefined): Promise<void> {
  if (created === undefined) return;
  const store = await stat(path).catch(() => undefined);
  if (store && store.size > 0) return;
  throw new StationError(
    'ERR_STORE_MISSING',
    `The store ${path} is ${store ? 'empty' : 'missing'}, but this data directory held a station (created as ${created}). ` +
      'Restore your last backup with `signing-station restore FILE`, or start a new station here with `signing-station reset` ' +
      '(clients, secrets and the audit log start empty); see docs/operations.md.',
    { status: 500, details: { path } },
  );
}

/** The store must be the one the directory was created with, not an empty one a failed write left behind. */
async function refuseOtherStore(path: string, created: string, stored: string | undefined): Promise<void> {
  if (stored === created) return;
  throw new StationError(
    stored === undefined ? 'ERR_STORE_MISSING' : 'ERR_STORE_MISMATCH',
    `The store ${path} ${stored === undefined ? 'holds no station' : `belongs to station ${stored}`}, but this data directory was created as station ${created}. ` +
      'Restore your last backup of this station with `signing-station restore FILE`, or start a new station here with `signing-station reset`; see docs/operations.md.',
    { status: 500, details: { path } },
  );
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
