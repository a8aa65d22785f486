import type { Database, SqlExecutor } from '../store/database.js';

/** One SQL statement: a write that is alone in its batch runs without a transaction around it. */
type Write<T> = (tx: SqlExecutor) => Promise<T>;

interface Queued {
  write: Write<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the token endpoint's durable writes (jti records, code consumption): writes that arrive
 * while a commit is being flushed go together in the next transaction, so concurrent requests share one fsync
 * instead of queueing one each. Every write still resolves only after its transaction committed, and each one
 * succeeds or fails on its own (a refused jti does not roll back a neighbour's code consumption).
 *
 * A batch of one runs as a single autocommitted statement: SQLite makes a lone statement atomic and durable by
 * itself, in one round trip to the store's thread instead of three (BEGIN IMMEDIATE, the write, COMMIT).
 */
export class GroupedWrites {
  readonly #database: Database;
  #queue: Queued[] = [];
  #flushing: Promise<void> | undefined;

  constructor(database: Database) {
    this.#database = database;
  }

  write<T>(write: Write<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      this.#flushing ??= this.#flush();
    });
  }

  async #flush(): Promise<void> {
    // Let the writes of requests already in flight in this turn of the event loop join the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      if (batch.length === 1) {
        const [item] = batch as [Queued];
        await item.write(this.#database).then(item.resolve, item.reject);
        continue;
      }
      const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
      try {
        await this.#database.transaction(async (tx) => {
          for (const item of batch) {
            try {
              outcomes.push({ ok: true, value: await item.write(tx) });
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          }
        });
      } catch (error) {
        for (const item of batch) item.reject(error);
        continue;
      }
      batch.forEach((item, index) => {
        const outcome = outcomes[index]!;
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.error);
      });
    }
    this.#flushing = undefined;
  }
}
