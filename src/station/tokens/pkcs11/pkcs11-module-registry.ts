import { access, constants, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { InvalidInputError } from '../../../core/errors/invalid-input-error.js';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';
import { Pkcs11ModuleAllowlist } from './pkcs11-module-allowlist.js';
import { openModuleFile } from './open-module-file.js';
import type { Database } from '../../store/database.js';
import type { Migration } from '../../store/migration.js';
import { systemClock, type Clock } from '../../ports/clock.js';
import { importWithPkcs11js } from './import-with-pkcs11js.js';

export const pkcs11Migrations: readonly Migration[] = [
  {
    id: 'pkcs11-001-user-modules',
    sql: `CREATE TABLE pkcs11_user_modules (
      path TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('module', 'nss-database')),
      added_at TEXT NOT NULL
    )`,
  },
  {
    // The SHA-256 the user confirmed for a library outside the allowlist; checked again before every load.
    id: 'pkcs11-002-confirmed-sha256',
    sql: 'ALTER TABLE pkcs11_user_modules ADD COLUMN sha256 TEXT',
  },
];

/** A library outside the allowlist, as the user is asked to trust it. */
export interface ModuleFile {
  path: string;
  sha256: string;
  sizeBytes: number;
}

/** Asks the user, in the station's own prompt, whether to trust this exact file. */
export type ConfirmModuleFile = (file: ModuleFile) => Promise<boolean>;

export interface UserModuleEntry {
  /** A PKCS#11 library, or the directory of an NSS database (cert9.db, key4.db). */
  path: string;
  kind: 'module' | 'nss-database';
  addedAt: string;
  /** Set for a library outside the allowlist: the SHA-256 the user trusted; another file is not loaded. */
  sha256?: string;
}

/**
 * PKCS#11 libraries and NSS databases the user added (CLI `tokens modules add`, the station UI) on top of the
 * per-OS list. Loading a library runs its code, so before anything touches it: the path is resolved (stored as
 * the real file, so a symlink retargeted later changes nothing and one file is listed once) and must be safe (see
 * openModuleFile); a library inside the allowlist is accepted, any other needs `confirm` to say the user trusts
 * that exact file (path and SHA-256), else it is refused unloaded. Only then is it checked by loading it (dlopen +
 * C_GetFunctionList, no C_Initialize), so a typo or a library for the wrong architecture is refused at once
 * instead of at every start. Without `confirm` (the station UI over HTTP) nothing outside the allowlist is trusted.
 */
export class Pkcs11ModuleRegistry {
  readonly #database: Database;
  readonly #allowlist: Pkcs11ModuleAllowlist;
  readonly #clock: Clock;

  constructor(database: Database, allowlist: Pkcs11ModuleAllowlist = new Pkcs11ModuleAllowlist(), clock: Clock = systemClock) {
    this.#database = database;
    this.#allowlist = allowlist;
    this.#clock = clock;
  }

  async list(): Promise<UserModuleEntry[]> {
    const rows = await this.#database.all<{ path: string; kind: UserModuleEntry['kind']; added_at: string; sha256: string | null }>(
      'SELECT path, kind, added_at, sha256 FROM pkcs11_user_modules ORDER BY added_at, path',
    );
    return rows.map((row) => ({ path: row.path, kind: row.kind, addedAt: row.added_at, ...(row.sha256 ? { sha256: row.sha256 } : {}) }));
  }

  async add(named: string, kind: UserModuleEntry['kind'] = 'module', confirm?: ConfirmModuleFile): Promise<UserModuleEntry> {
    if (!isAbsolute(named)) throw new InvalidInputError(`Give the module's absolute path, not ${named}.`, { path: ['must be absolute'] });
    const path = await realpath(named).catch(() => named);
    let sha256: string | undefined;
    if (kind === 'module') {
      sha256 = await this.#admit(path, confirm);
      await assertLoadable(path, sha256);
    } else {
      await assertNssDatabase(path);
    }
    const entry: UserModuleEntry = { path, kind, addedAt: this.#clock.now().toISOString(), ...(sha256 ? { sha256 } : {}) };
    await this.#database.run(
      `INSERT INTO pkcs11_user_modules (path, kind, added_at, sha256) VALUES (?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET kind = excluded.kind, sha256 = excluded.sha256`,
      [entry.path, entry.kind, entry.addedAt, sha256 ?? null],
    );
    return entry;
  }

  /** Whether a library at this (resolved) path may load without a confirmed SHA-256; asked again at every load. */
  isAllowlisted(path: string): Promise<boolean> {
    return this.#allowlist.allows(path);
  }

  /** Undefined for an allowlisted library; the trusted SHA-256 for one the user confirmed; else refused. */
  async #admit(path: string, confirm: ConfirmModuleFile | undefined): Promise<string | undefined> {
    if (await this.#allowlist.allows(path)) return undefined;
    await assertReadable(path);
    const opened = openModuleFile(path);
    opened.close();
    const file = { path, sha256: opened.sha256, sizeBytes: opened.sizeBytes };
    if (confirm && (await confirm(file))) return file.sha256;
    throw new ForbiddenError(
      'ERR_TOKEN_MODULE_NOT_TRUSTED',
      `${path} is outside the directories the station loads modules from (${this.#allowlist.directories().join(', ')}) ` +
        `and was not confirmed (SHA-256 ${file.sha256}). Nothing was loaded. Loading code is decided on your own terminal: ` +
        `signing-station tokens modules add ${path} --trust-sha256 ${file.sha256}`,
    );
  }

  /** True when something was removed; the path may be given as added or as the real file. */
  async remove(path: string): Promise<boolean> {
    const real = await realpath(path).catch(() => path);
    return (await this.#database.run('DELETE FROM pkcs11_user_modules WHERE path IN (?, ?)', [path, real])).changes > 0;
  }
}

async function assertReadable(path: string): Promise<void> {
  try {
    await access(path, constants.R_OK);
  } catch {
    throw new InvalidInputError(`No readable file at ${path}.`, { path: ['not found or not readable'] });
  }
  if ((await stat(path)).isDirectory()) {
    throw new InvalidInputError(`${path} is a directory, not a PKCS#11 library. If it is an NSS database (it holds cert9.db), add it as an NSS database (CLI: --nss-database).`, {
      path: ['a directory'],
    });
  }
}

/** `trustedSha256`: the file must still be the one the user confirmed when it is opened. */
async function assertLoadable(path: string, trustedSha256: string | undefined): Promise<void> {
  await assertReadable(path);
  // Imported here, not with this file: the station lists its modules at every start, and loads pkcs11js on first use.
  const { default: pkcs11js } = await importWithPkcs11js(() => import('pkcs11js'));
  const file = openModuleFile(path, trustedSha256);
  const library = new pkcs11js.PKCS11();
  try {
    library.load(file.loadPath);
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
