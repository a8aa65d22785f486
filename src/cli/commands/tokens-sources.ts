import type { StationData } from '../../station/open-station-data.js';
import type { TokenSource } from '../../station/tokens/token.js';
import { createStationTokenSources } from '../../station/tokens/pkcs11/create-station-token-sources.js';

export interface TokenSourceFlags {
  module: string[];
  nssDb: string[];
  /** commander's --no-known-modules */
  knownModules: boolean;
}

/** The token sources an offline tokens command uses: PKCS#11 (known, configured, user-added) and the station store. */
export function tokenSourcesFor(data: StationData, flags: TokenSourceFlags, configModules: readonly string[]): TokenSource[] {
  return createStationTokenSources({
    database: data.database,
    vault: data.vault,
    modulePaths: [...configModules, ...flags.module],
    nssDatabases: flags.nssDb,
    includeKnown: flags.knownModules,
  }).all;
}
