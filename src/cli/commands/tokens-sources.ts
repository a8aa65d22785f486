import { statSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import type { StationData } from '../../station/open-station-data.js';
import type { StationConfig } from '../../station/config/station-config.js';
import { configuredPkcs11Modules } from '../../station/config/configured-pkcs11-modules.js';
import type { TokenSource } from '../../station/tokens/token.js';
import { createStationTokenSources } from '../../station/tokens/create-station-token-sources.js';

export interface TokenSourceFlags {
  module: string[];
  nssDb: string[];
  /** commander's --no-known-modules */
  knownModules: boolean;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** A module is a library file and an NSS database a directory: the usual mix-up gets its fix named. */
const collectModule = (value: string, previous: string[]): string[] => {
  if (statSync(value, { throwIfNoEntry: false })?.isDirectory()) {
    throw new InvalidArgumentError(`${value} is a directory, not a PKCS#11 library; an NSS database (a directory with cert9.db) goes with --nss-db.`);
  }
  return collect(value, previous);
};

const collectNssDatabase = (value: string, previous: string[]): string[] => {
  const found = statSync(value, { throwIfNoEntry: false });
  if (!found?.isDirectory()) throw new InvalidArgumentError(`${value} is not a directory; an NSS database is the directory that holds cert9.db.`);
  return collect(value, previous);
};

/** The flags that choose the PKCS#11 modules and NSS databases, for the commands that open tokens. */
export function addTokenSourceOptions(command: Command): Command {
  return command
    .option('--module <path>', 'also load this PKCS#11 module (repeatable)', collectModule, [])
    .option('--nss-db <dir>', 'also open this NSS certificate database directory (repeatable)', collectNssDatabase, [])
    .option('--no-known-modules', 'do not look for the usual middleware of this OS or the browser NSS database');
}

/** The token sources an offline tokens command uses: PKCS#11 (known, configured, user-added), the station store, PC/SC. */
export function tokenSourcesFor(data: StationData, flags: TokenSourceFlags, config: Pick<StationConfig, 'pkcs11Modules' | 'pcsc' | 'tsa'>): TokenSource[] {
  return createStationTokenSources({
    database: data.database,
    vault: data.vault,
    modulePaths: [...configuredPkcs11Modules(config), ...flags.module],
    pcsc: { enabled: config.pcsc.enabled, atrMappings: config.pcsc.atrMap },
    nssDatabases: flags.nssDb,
    includeKnown: flags.knownModules,
  }).all;
}
