import type { Migration } from './migration.js';
import { secretVaultMigrations } from '../keychain/secret-vault.js';
import { clientRegistryMigrations } from '../clients/client-registry.js';
import { stationSettingsMigrations } from './station-settings.js';
import { signingSessionMigrations } from '../sessions/signing-sessions.js';
import { auditLogMigrations } from '../audit/audit-log.js';
import { pkcs11Migrations } from '../tokens/pkcs11/pkcs11-module-registry.js';
import { softTokenMigrations } from '../tokens/soft/soft-token-store.js';
import { tsaMigrations } from '../tsa/tsa-migrations.js';
import { oidcMigrations } from '../oidc/oidc-migrations.js';

/** Every area's schema, in the order they were introduced. Append; never reorder or edit an applied one. */
export const stationMigrations: readonly Migration[] = [
  ...stationSettingsMigrations,
  ...secretVaultMigrations,
  ...clientRegistryMigrations,
  ...signingSessionMigrations,
  ...auditLogMigrations,
  ...pkcs11Migrations,
  ...softTokenMigrations,
  ...tsaMigrations,
  ...oidcMigrations,
];
