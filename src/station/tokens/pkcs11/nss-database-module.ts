import type { Pkcs11ModuleSpec } from './pkcs11-module-spec.js';

/**
 * The NSS certificate database of a browser profile, opened through NSS's own softoken: its token
 * "NSS Certificate DB" holds the user's certificates and keys, its PIN is the database password.
 * Read-only: the station signs with the keys there but never changes the database.
 */
export function nssDatabaseModule(softokenPath: string, databaseDir: string, origin: Pkcs11ModuleSpec['origin'] = 'config'): Pkcs11ModuleSpec {
  if (databaseDir.includes("'")) throw new TypeError('An NSS database directory may not contain a single quote');
  return {
    path: softokenPath,
    name: `NSS certificate database ${databaseDir}`,
    kind: 'store',
    origin,
    initialize: {
      libraryParameters: `configdir='sql:${databaseDir}' certPrefix='' keyPrefix='' secmod='secmod.db' flags=readOnly`,
    },
    rescanByReinitialize: false,
    hiddenTokenLabels: ['NSS Generic Crypto Services'],
  };
}
