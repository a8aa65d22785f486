import { access, constants, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import pkcs11js from 'pkcs11js';
import { InvalidInputError } from '../../../core/errors/invalid-input-error.js';
import type { Database } from '../../store/database.js';
import type { Migration } from '../../store/migration.js';

export const pkcs11Migrations: readonly Migration[] = [
  {
    id: 'pkcs11-001-user-modules',
    sql: `CREATE TABLE pkcs11_user_modules (
      path TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('module', 'nss-database')),
      added_at TEXT NOT NULL
    )`,
  },
];

export interface UserModuleEntry {
  /** A PKCS#11 library, or the directory of an NSS database (cert9.db, key4.db). */
  path: string;
  kind: 'module' | 'nss-database';
  addedAt: string;
}

/**
 * PKCS#11 libraries and NSS databases the user added (CLI `tokens modules add`, the station UI) on top of the
 * per-OS list. A library is checked by loading it (dlopen + C_GetFunctionList, no C_Initialize) before it is
 * saved, so a typo or a library for the wrong architecture is refused at once instead of at every start.
 */
export class Pkcs11ModuleRegistry {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async list(): Promise<UserModuleEntry[]> {
    const rows = await this.#database.all<{ path: string; kind: UserModuleEntry['kind']; added_at: string }>(
      'SELECT path, kind, added_at FROM pkcs11_user_modules ORDER BY added_at, path',
    );
    return rows.map((row) => ({ path: row.path, kind: row.kind, addedAt: row.added_at }));
  }

  async add(path: string, kind: UserModuleEntry['kind'] = 'module'): Promise<UserModuleEntry> {
    if (!isAbsolute(path)) throw new InvalidInputError(`Give the module's absolute path, not ${path}.`, { path: ['must be absolute'] });
    if (kind === 'module') await assertLoadable(path);
    else await assertNssDatabase(path);
    const entry: UserModuleEntry = { path, kind, addedAt: new Date().toISOString() };
    await this.#database.run(
      'INSERT INTO pkcs11_user_modules (path, kind, added_at) VALUES (?, ?, ?) ON CONFLICT(path) DO UPDATE SET kind = excluded.kind',
      [entry.path, entry.kind, entry.addedAt],
    );
    return entry;
  }

  /** True when something was removed. */
  async remove(path: string): Promise<boolean> {
    return (await this.#database.run('DELETE FROM pkcs11_user_modules WHERE path = ?', [path])).changes > 0;
  }
}

async function assertLoadable(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new InvalidInputError(`No readable file at ${path}.`, { path: ['not found or not readable'] });
  }
  const library = new pkcs11js.PKCS11();
  try {
    library.load(path);
  } catch (cause) {
    throw new InvalidInputError(`${path} is not a PKCS#11 library this station can load: ${(cause as Error).message}`, { path: ['not a PKCS#11 library'] });
  }
  library.close();
}

async function assertNssDatabase(dir: string): Promise<void> {
  try {
    if ((await stat(join(dir, 'cert9.db'))).isFile()) return;
  } catch {
    // reported below
  }
  throw new InvalidInputError(`${dir} is not an NSS database directory (no cert9.db in it).`, { path: ['no cert9.db'] });
}
