import type { StationData } from '../../station/open-station-data.js';
import type { TokenSource } from '../../station/tokens/token.js';
import { createPkcs11TokenSource } from '../../station/tokens/pkcs11/create-pkcs11-token-source.js';
import { Pkcs11ModuleRegistry } from '../../station/tokens/pkcs11/pkcs11-module-registry.js';
import { createSoftTokenSource } from '../../station/tokens/soft/create-soft-token-source.js';
import { SoftTokenStore } from '../../station/tokens/soft/soft-token-store.js';

export interface TokenSourceFlags {
  module: string[];
  nssDb: string[];
  /** commander's --no-known-modules */
  knownModules: boolean;
}

/** The token sources an offline tokens command uses: PKCS#11 (known, configured, user-added) and the station store. */
export function tokenSourcesFor(data: StationData, flags: TokenSourceFlags, configModules: readonly string[]): TokenSource[] {
  return [
    createPkcs11TokenSource({
      includeKnown: flags.knownModules,
      registry: new Pkcs11ModuleRegistry(data.database),
      modulePaths: [...configModules, ...flags.module],
      nssDatabases: flags.nssDb,
    }),
    createSoftTokenSource(new SoftTokenStore(data.database, data.vault)),
  ];
}
