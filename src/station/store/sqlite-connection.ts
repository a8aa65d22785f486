import sqlite3 from 'sqlite3';
import { StoreError } from './store-error.js';

export type SqlValue = string | number | bigint | Uint8Array | null;
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

/**
 * One sqlite3 connection with its statements prepared once per SQL text: sqlite3's one-shot calls prepare, step
 * and finalise, three trips to the thread pool instead of one. Every statement steps to its end, which releases
 * its read snapshot (a statement left on its first row would keep the connection's implicit transaction open), so
 * reads take all the rows their query matches. The SQL texts are the code's own constants, so the map stays small.
 * Ordering and transactions are the Database's business, not this class's.
 */
export class SqliteConnection {
  readonly #db: sqlite3.Database;
  readonly #statements = new Map<string, Promise<sqlite3.Statement>>();

  private constructor(db: sqlite3.Database) {
    this.#db = db;
  }

  static open(path: string, mode: 'read-write' | 'read-only'): Promise<SqliteConnection> {
    const flags = mode === 'read-write' ? sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE : sqlite3.OPEN_READONLY;
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, flags, (error) => {
        if (error) return reject(new StoreError(`Cannot open the store at ${path}: ${error.message}`, error));
        db.configure('busyTimeout', 5_000);
        resolve(new SqliteConnection(db));
      });
    });
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.#db.exec(sql, (error) => (error ? reject(new StoreError(`Store statement failed: ${error.message}`, error)) : resolve())));
  }

  async run(sql: string, params: SqlParams): Promise<{ changes: number; lastId: number }> {
    const statement = await this.#prepared(sql);
    return new Promise((resolve, reject) => {
      const discard = this.#discard.bind(this);
      statement.run(params, function onRun(this: sqlite3.RunResult, error: Error | null) {
        if (error) discard(sql, statement, () => reject(new StoreError(`Store statement failed: ${error.message}`, error)));
        else resolve({ changes: this.changes, lastId: this.lastID });
      });
    });
  }

  async all<Row>(sql: string, params: SqlParams): Promise<Row[]> {
    const statement = await this.#prepared(sql);
    return new Promise((resolve, reject) =>
      statement.all<Row>(params, (error, rows) => {
        if (error) this.#discard(sql, statement, () => reject(new StoreError(`Store query failed: ${error.message}`, error)));
        else resolve(rows);
      }),
    );
  }

  /** `VACUUM INTO path`: a consistent copy of the whole store in one read transaction. */
  vacuumInto(path: string): Promise<void> {
    return new Promise((resolve, reject) =>
      this.#db.run('VACUUM INTO ?', [path], (error) => (error ? reject(new StoreError(`Cannot back up the store to ${path}: ${error.message}`, error)) : resolve())),
    );
  }

  async close(): Promise<void> {
    const statements = await Promise.allSettled(this.#statements.values());
    this.#statements.clear();
    for (const statement of statements) {
      if (statement.status === 'fulfilled') await new Promise<void>((resolve) => statement.value.finalize(() => resolve()));
    }
    await new Promise<void>((resolve, reject) => this.#db.close((error) => (error ? reject(error) : resolve())));
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
}
