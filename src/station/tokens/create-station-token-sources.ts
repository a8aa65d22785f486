import type { AtrMappingInput } from '../../core/schemas/atr-mapping.js';
import type { SecretVault } from '../keychain/secret-vault.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { Database } from '../store/database.js';
import type { TokenSource } from './token.js';
import { createSoftTokenSource } from './soft/create-soft-token-source.js';
import { SoftTokenStore } from './soft/soft-token-store.js';
import { createPkcs11TokenSource } from './pkcs11/create-pkcs11-token-source.js';
import { Pkcs11ModuleRegistry } from './pkcs11/pkcs11-module-registry.js';
import { Pkcs11ModuleAllowlist } from './pkcs11/pkcs11-module-allowlist.js';
import type { Pkcs11TokenSource } from './pkcs11/pkcs11-token-source.js';
import { createPcscTokenSource, type PcscTokenSource } from './pcsc/pcsc-token-source.js';

export interface StationTokenSources {
  /** USB tokens, cards through PKCS#11 middleware, the browser NSS database. */
  pkcs11: Pkcs11TokenSource;
  /** The station's own store of imported PKCS#12 keys. */
  store: TokenSource;
  /** The user's module list, for `pkcs11ModuleRoutes` and the CLI. */
  modules: Pkcs11ModuleRegistry;
  softStore: SoftTokenStore;
  /** PC/SC readers and the ID cards the station drives itself; absent when PC/SC is switched off. */
  pcsc?: PcscTokenSource;
  all: TokenSource[];
}

/**
 * The PKCS#11, station-store and PC/SC sources over the station's data (store and vault), for the composition root and
 * the offline CLI alike. Needs `pkcs11Migrations` and `softTokenMigrations` applied to `database`.
 */
export function createStationTokenSources(options: {
  database: Database;
  vault: SecretVault;
  /** `pkcs11Modules` from the station config, plus any `--module` flags. */
  modulePaths?: readonly string[];
  nssDatabases?: readonly string[];
  includeKnown?: boolean;
  /** Directories, besides the OS's standard ones, whose PKCS#11 libraries are loaded without asking. */
  allowedModuleDirs?: readonly string[];
  /** PC/SC readers (default on) with the configured ATR mappings. */
  pcsc?: { enabled: boolean; atrMappings?: readonly AtrMappingInput[] };
  clock?: Clock;
}): StationTokenSources {
  const clock = options.clock ?? systemClock;
  const modules = new Pkcs11ModuleRegistry(options.database, new Pkcs11ModuleAllowlist({ extraDirs: options.allowedModuleDirs ?? [] }), clock);
  const softStore = new SoftTokenStore(options.database, options.vault, clock);
  const pkcs11 = createPkcs11TokenSource({
    registry: modules,
    clock,
    ...(options.modulePaths ? { modulePaths: options.modulePaths } : {}),
    ...(options.nssDatabases ? { nssDatabases: options.nssDatabases } : {}),
    ...(options.includeKnown !== undefined ? { includeKnown: options.includeKnown } : {}),
  });
  const store = createSoftTokenSource(softStore, clock);
  const pcsc = options.pcsc?.enabled === false ? undefined : createPcscTokenSource({ atrMappings: options.pcsc?.atrMappings ?? [], clock });
  return { pkcs11, store, modules, softStore, ...(pcsc ? { pcsc } : {}), all: pcsc ? [pkcs11, store, pcsc] : [pkcs11, store] };
}
