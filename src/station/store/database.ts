import type { Migration } from './migration.js';
import { SqliteConnection, type SqlParams } from './sqlite-connection.js';
import { systemClock, type Clock } from '../ports/clock.js';

export interface SqlExecutor {
  /** A statement that changes rows and returns none (it is stepped once). */
  run(sql: string, params?: SqlParams): Promise<{ changes: number; lastId: number }>;
  get<Row>(sql: string, params?: SqlParams): Promise<Row | undefined>;
  all<Row>(sql: string, params?: SqlParams): Promise<Row[]>;
}

/**
 * The station's SQLite store (Node-API sqlite3). WAL journal with synchronous=FULL: a write that resolved is on
 * disk, so a kill -9 at any point loses nothing acknowledged.
 *
 * Two connections, as WAL is meant to be used: one writes, its statements and transactions serialised here
 * (sqlite3 shares one connection's state between callers); the other only reads, outside any transaction, and
 * does not wait for the writer's commits and their fsyncs. A read sees every write that resolved before it
 * started. Reads inside a transaction go through the writer and see the transaction's own writes.
 */
export class Database implements SqlExecutor {
  readonly #writer: SqliteConnection;
  readonly #reader: SqliteConnection;
  #queue: Promise<unknown> = Promise.resolve();
  #dataVersion: number | undefined;

  private constructor(writer: SqliteConnection, reader: SqliteConnection) {
    this.#writer = writer;
    this.#reader = reader;
  }

  static async open(path: string, migrations: readonly Migration[], clock: Clock = systemClock): Promise<Database> {
    const writer = await SqliteConnection.open(path, 'read-write');
    try {
      await writer.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;');
      await migrate(writer, migrations, clock);
      // Opened once the file is in WAL mode and migrated: the reader never sees a half-made schema.
      const database = new Database(writer, await SqliteConnection.open(path, 'read-only'));
      await database.changedElsewhere();
      return database;
    } catch (error) {
      await writer.close().catch(() => undefined);
      throw error;
    }
  }

  run(sql: string, params: SqlParams = []): Promise<{ changes: number; lastId: number }> {
    return this.#serialised(() => this.#writer.run(sql, params));
  }

  async get<Row>(sql: string, params: SqlParams = []): Promise<Row | undefined> {
    return (await this.#reader.all<Row>(sql, params))[0];
  }

  all<Row>(sql: string, params: SqlParams = []): Promise<Row[]> {
    return this.#reader.all<Row>(sql, params);
  }

  /** Runs `work` inside BEGIN IMMEDIATE ... COMMIT on the writer; no other write of this process interleaves. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#serialised(() => inTransaction(this.#writer, work));
  }

  /**
   * Whether another connection (another process: the CLI) committed since the last call. SQLite moves
   * `data_version` only for other connections' commits, so this process's own writes, which a watcher on the
   * data directory sees just the same, do not count: it is asked on the writer.
   */
  async changedElsewhere(): Promise<boolean> {
    const [row] = await this.#serialised(() => this.#writer.all<{ data_version: number }>('PRAGMA data_version', []));
    const changed = this.#dataVersion !== undefined && row?.data_version !== this.#dataVersion;
    this.#dataVersion = row?.data_version;
    return changed;
  }

  /**
   * A consistent copy of the whole store written to `path` (VACUUM INTO: one read transaction, so another process
   * keeps writing meanwhile). `path` must not exist or be an empty file.
   */
  backupTo(path: string): Promise<void> {
    return this.#serialised(() => this.#writer.vacuumInto(path));
  }

  close(): Promise<void> {
    return this.#serialised(async () => {
      await this.#reader.close();
      await this.#writer.close();
    });
  }

  #serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(work, work);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}

async function inTransaction<T>(connection: SqliteConnection, work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  await connection.exec('BEGIN IMMEDIATE');
  const tx: SqlExecutor = {
    run: (sql, params = []) => connection.run(sql, params),
    get: async <Row>(sql: string, params: SqlParams = []) => (await connection.all<Row>(sql, params))[0],
    all: <Row>(sql: string, params: SqlParams = []) => connection.all<Row>(sql, params),
  };
  try {
    const result = await work(tx);
    await connection.exec('COMMIT');
    return result;
  } catch (error) {
    await connection.exec('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function migrate(connection: SqliteConnection, migrations: readonly Migration[], clock: Clock): Promise<void> {
  await connection.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const seen = new Set<string>();
  for (const migration of migrations) {
    if (seen.has(migration.id)) throw new TypeError(`Duplicate migration id ${migration.id}`);
    seen.add(migration.id);
    await inTransaction(connection, async (tx) => {
      if (await tx.get('SELECT 1 FROM schema_migrations WHERE id = ?', [migration.id])) return;
      await connection.exec(migration.sql);
      await tx.run('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)', [migration.id, clock.now().toISOString()]);
    });
  }
}
