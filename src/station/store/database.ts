import sqlite3 from 'sqlite3';
import type { Migration } from './migration.js';
import { StoreError } from './store-error.js';
import { systemClock, type Clock } from '../ports/clock.js';

export type SqlValue = string | number | bigint | Uint8Array | null;
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

export interface SqlExecutor {
  /** A statement that returns no rows (it is stepped once); all() for one with RETURNING. */
  run(sql: string, params?: SqlParams): Promise<{ changes: number; lastId: number }>;
  get<Row>(sql: string, params?: SqlParams): Promise<Row | undefined>;
  all<Row>(sql: string, params?: SqlParams): Promise<Row[]>;
}

/**
 * The station's SQLite store (Node-API sqlite3). WAL journal with synchronous=FULL: a transaction that
 * resolved is on disk, so a kill -9 at any point loses nothing acknowledged. One connection; transactions are
 * serialised here because sqlite3 shares one connection state between callers.
 */
export class Database implements SqlExecutor {
  readonly #db: sqlite3.Database;
  /**
   * Statements prepared once per SQL text: sqlite3's one-shot calls prepare, step and finalise, three trips to the
   * thread pool instead of one. Every statement steps to its end, which releases its read snapshot (a statement
   * left on its first row would keep the connection's implicit transaction open), so get() reads all the rows its
   * query matches and returns the first: its queries are key lookups. The SQL texts are the code's own
   * constants, so the map stays small.
   */
  readonly #statements = new Map<string, Promise<sqlite3.Statement>>();
  #queue: Promise<unknown> = Promise.resolve();
  #dataVersion: number | undefined;

  private constructor(db: sqlite3.Database) {
    this.#db = db;
  }

  static async open(path: string, migrations: readonly Migration[], clock: Clock = systemClock): Promise<Database> {
    const raw = await new Promise<sqlite3.Database>((resolve, reject) => {
      const db = new sqlite3.Database(path, sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE, (error) =>
        error ? reject(new StoreError(`Cannot open the store at ${path}: ${error.message}`, error)) : resolve(db),
      );
    });
    const database = new Database(raw);
    raw.configure('busyTimeout', 5_000);
    await database.#exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
    await database.#migrate(migrations, clock);
    await database.changedElsewhere();
    return database;
  }

  run(sql: string, params: SqlParams = []): Promise<{ changes: number; lastId: number }> {
    return this.#serialised(() => this.#run(sql, params));
  }

  get<Row>(sql: string, params: SqlParams = []): Promise<Row | undefined> {
    return this.#serialised(() => this.#get<Row>(sql, params));
  }

  all<Row>(sql: string, params: SqlParams = []): Promise<Row[]> {
    return this.#serialised(() => this.#all<Row>(sql, params));
  }

  /** Runs `work` inside BEGIN IMMEDIATE ... COMMIT; no other statement of this process interleaves. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#serialised(async () => {
      await this.#exec('BEGIN IMMEDIATE');
      const tx: SqlExecutor = {
        run: (sql, params = []) => this.#run(sql, params),
        get: <Row>(sql: string, params: SqlParams = []) => this.#get<Row>(sql, params),
        all: <Row>(sql: string, params: SqlParams = []) => this.#all<Row>(sql, params),
      };
      try {
        const result = await work(tx);
        await this.#exec('COMMIT');
        return result;
      } catch (error) {
        await this.#exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /**
   * Whether another connection (another process: the CLI) committed since the last call. SQLite moves
   * `data_version` only for other connections' commits, so this process's own writes, which a watcher on the
   * data directory sees just the same, do not count.
   */
  async changedElsewhere(): Promise<boolean> {
    const row = await this.get<{ data_version: number }>('PRAGMA data_version');
    const changed = this.#dataVersion !== undefined && row?.data_version !== this.#dataVersion;
    this.#dataVersion = row?.data_version;
    return changed;
  }

  /**
   * A consistent copy of the whole store written to `path` (VACUUM INTO: one read transaction, so another process
   * keeps writing meanwhile). `path` must not exist or be an empty file.
   */
  backupTo(path: string): Promise<void> {
    return this.#serialised(
      () => new Promise<void>((resolve, reject) => this.#db.run('VACUUM INTO ?', [path], (error) => (error ? reject(new StoreError(`Cannot back up the store to ${path}: ${error.message}`, error)) : resolve()))),
    );
  }

  close(): Promise<void> {
    return this.#serialised(async () => {
      const statements = await Promise.allSettled(this.#statements.values());
      this.#statements.clear();
      for (const statement of statements) {
        if (statement.status === 'fulfilled') await new Promise<void>((resolve) => statement.value.finalize(() => resolve()));
      }
      await new Promise<void>((resolve, reject) => this.#db.close((error) => (error ? reject(error) : resolve())));
    });
  }

  async #migrate(migrations: readonly Migration[], clock: Clock): Promise<void> {
    await this.#exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    const seen = new Set<string>();
    for (const migration of migrations) {
      if (seen.has(migration.id)) throw new TypeError(`Duplicate migration id ${migration.id}`);
      seen.add(migration.id);
      await this.transaction(async (tx) => {
        const applied = await tx.get('SELECT 1 FROM schema_migrations WHERE id = ?', [migration.id]);
        if (applied) return;
        await this.#exec(migration.sql);
        await tx.run('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)', [migration.id, clock.now().toISOString()]);
      });
    }
  }

  #serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) =>
      this.#db.exec(sql, (error) => (error ? reject(new StoreError(`Store statement failed: ${error.message}`, error)) : resolve())),
    );
  }

  async #run(sql: string, params: SqlParams): Promise<{ changes: number; lastId: number }> {
    const statement = await this.#prepared(sql);
    return new Promise((resolve, reject) => {
      const discard = this.#discard.bind(this);
      statement.run(params, function onRun(this: sqlite3.RunResult, error: Error | null) {
        if (error) discard(sql, statement, () => reject(new StoreError(`Store statement failed: ${error.message}`, error)));
        else resolve({ changes: this.changes, lastId: this.lastID });
      });
    });
  }

  /**
   * A statement that failed mid-way (SQLITE_BUSY, a constraint) stays active until it is reset, and an active
   * statement keeps the connection's implicit transaction open: later writes would join it and be rolled back
   * with it. It is finalised, and prepared afresh on next use, before the caller hears of the failure.
   */
  #discard(sql: string, statement: sqlite3.Statement, then: () => void): void {
    this.#statements.delete(sql);
    statement.finalize(() => then());
  }

  #prepared(sql: string): Promise<sqlite3.Statement> {
    let statement = this.#statements.get(sql);
    if (!statement) {
      // A statement whose preparation failed never calls back from run(): wait for the preparation's own outcome.
      statement = new Promise((resolve, reject) => {
        const prepared = this.#db.prepare(sql, (error) => {
          if (!error) return resolve(prepared);
          this.#statements.delete(sql);
          reject(new StoreError(`Store statement failed: ${error.message}`, error));
        });
      });
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  async #get<Row>(sql: string, params: SqlParams): Promise<Row | undefined> {
    return (await this.#all<Row>(sql, params))[0];
  }

  async #all<Row>(sql: string, params: SqlParams): Promise<Row[]> {
    const statement = await this.#prepared(sql);
    return new Promise((resolve, reject) =>
      statement.all<Row>(params, (error, rows) => {
        if (error) this.#discard(sql, statement, () => reject(new StoreError(`Store query failed: ${error.message}`, error)));
        else resolve(rows);
      }),
    );
  }
}
