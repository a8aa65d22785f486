import { Option, type Command } from 'commander';
import type { StationConfig, StationConfigInput } from '../station/config/station-config.js';
import { loadStationConfig } from '../station/config/load-station-config.js';
import { OsKeyStore } from '../station/keychain/os-key-store.js';
import { PassphraseKeyStore } from '../station/keychain/passphrase-key-store.js';
import { KeychainError } from '../station/keychain/keychain-error.js';
import { stationFiles } from '../station/store/station-files.js';
import type { KeyStore } from '../station/ports/key-store.js';

export interface StationOptionValues {
  config?: string;
  dataDir?: string;
  keyStore?: 'os' | 'passphrase';
  logLevel?: StationConfig['logLevel'];
}

/** The options every command that touches the data directory takes. */
export function addStationOptions(command: Command): Command {
  return command
    .option('--config <file>', 'JSON config file (flags override it)')
    .option('--data-dir <dir>', 'data directory (default: per-user, or SIGNING_STATION_DATA_DIR)')
    .addOption(new Option('--key-store <kind>', 'where the master key lives: the OS keychain, or a passphrase file (SIGNING_STATION_PASSPHRASE)').choices(['os', 'passphrase']))
    .addOption(new Option('--log-level <level>', 'log level (logs go to stderr)').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']));
}

export function resolveConfig(values: StationOptionValues, extra: Partial<StationConfigInput> = {}): Promise<StationConfig> {
  return loadStationConfig(values.config, { dataDir: values.dataDir, keyStore: values.keyStore, logLevel: values.logLevel, ...extra });
}

/** The configured key store; an unreachable OS keychain is found when the vault first reads its key. */
export function openKeyStore(config: StationConfig): KeyStore {
  if (config.keyStore === 'os') return new OsKeyStore();
  const passphrase = process.env.SIGNING_STATION_PASSPHRASE;
  if (!passphrase) {
    throw new KeychainError('--key-store passphrase needs the passphrase in the SIGNING_STATION_PASSPHRASE environment variable.', { retriable: false });
  }
  return new PassphraseKeyStore(stationFiles(config.dataDir).keyFile, passphrase);
}
