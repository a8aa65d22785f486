import type { Migration } from '../store/migration.js';

/**
 * The OpenID provider's persistent state: oidc-provider's artefacts (codes, sessions, interactions, grants and
 * the client-assertion jti replay cache) survive a restart, so a code or an assertion cannot be replayed after
 * one; signing key metadata (the private keys themselves live in the vault); the identities users logged in with.
 */
export const oidcMigrations: readonly Migration[] = [
  {
    id: 'oidc-001-models',
    sql: `CREATE TABLE oidc_models (
      model TEXT NOT NULL,
      id TEXT NOT NULL,
      payload TEXT NOT NULL,
      grant_id TEXT,
      uid TEXT,
      user_code TEXT,
      expires_at INTEGER,
      consumed_at INTEGER,
      PRIMARY KEY (model, id)
    );
    CREATE INDEX oidc_models_grant ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
    CREATE INDEX oidc_models_uid ON oidc_models (model, uid) WHERE uid IS NOT NULL;
    CREATE INDEX oidc_models_expiry ON oidc_models (expires_at) WHERE expires_at IS NOT NULL;
    CREATE TABLE oidc_signing_keys (
      kid TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL,
      retired_at INTEGER,
      published_until INTEGER
    );
    CREATE TABLE oidc_accounts (
      sub TEXT PRIMARY KEY,
      person TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );`,
  },
];
