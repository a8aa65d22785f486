import type { Migration } from '../store/migration.js';

/** The TSA's tables. Its private keys are not here: they live in the vault, named by `key_name`. */
export const tsaMigrations: readonly Migration[] = [
  {
    id: 'tsa-001-serial-counter',
    // One row: the lowest serial number never handed out. Blocks are reserved by moving it up before use.
    sql: 'CREATE TABLE tsa_serial (id INTEGER PRIMARY KEY CHECK (id = 1), next_serial INTEGER NOT NULL CHECK (next_serial > 0))',
  },
  {
    id: 'tsa-002-certificates',
    sql: `CREATE TABLE tsa_certificates (
      role TEXT PRIMARY KEY CHECK (role IN ('root', 'tsa')),
      certificate BLOB NOT NULL,
      key_name TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
  },
];
