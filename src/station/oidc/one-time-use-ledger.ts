import type { Database } from '../store/database.js';

interface Claim {
  id: string;
  decide: (won: boolean) => void;
  fail: (error: unknown) => void;
}

interface AssertionClaim extends Claim {
  payload: string;
  expiresAt: number;
}

// One statement per kind whatever the batch size: the batch travels as one JSON array parameter, so the SQL text
// (and the prepared statement behind it) never changes, and RETURNING names the ids that won.
const RECORD_ASSERTIONS = `
  INSERT INTO oidc_models (model, id, payload, expires_at)
  SELECT 'ReplayDetection', json_extract(value, '$.id'), json_extract(value, '$.payload'), json_extract(value, '$.expiresAt')
  FROM json_each(?) WHERE true
  ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, expires_at = excluded.expires_at
  WHERE oidc_models.expires_at <= ?
  RETURNING id`;
const CONSUME = `
  UPDATE oidc_models SET consumed_at = ?
  WHERE model = ? AND id IN (SELECT value FROM json_each(?)) AND consumed_at IS NULL
  RETURNING id`;

/**
 * The token endpoint's one-time uses, decided by the store: a client assertion's jti recorded (a replay loses)
 * and an authorization code consumed (a second use loses). Uses arriving in the same turn of the event loop go
 * to the store together, one conditional statement per kind, instead of a statement and a thread-pool trip
 * each. Each statement commits on its own: the uses are independent of one another and need no transaction
 * around them, only the store's durability (synchronous=FULL) before anyone is told they won.
 */
export class OneTimeUseLedger {
  readonly #database: Database;
  readonly #now: () => number;
  #assertions: AssertionClaim[] = [];
  #consumptions = new Map<string, Claim[]>();
  #scheduled = false;
  #flushing: Promise<void> | undefined;

  constructor(database: Database, now: () => number) {
    this.#database = database;
    this.#now = now;
  }

  /** Records a client assertion (by the hash oidc-provider keys it with); false if it was seen and has not expired. */
  recordAssertion(id: string, payload: string, expiresAt: number): Promise<boolean> {
    return new Promise((decide, fail) => {
      this.#assertions.push({ id, payload, expiresAt, decide, fail });
      this.#schedule();
    });
  }

  /** Marks a stored model (an authorization code) consumed; false if it already was, or does not exist. */
  consume(model: string, id: string): Promise<boolean> {
    return new Promise((decide, fail) => {
      const claims = this.#consumptions.get(model);
      if (claims) claims.push({ id, decide, fail });
      else this.#consumptions.set(model, [{ id, decide, fail }]);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // Uses that arrive while a batch is at the store wait for it and go together in the next one; the first use
    // after a quiet spell waits only for this turn of the event loop, for its neighbours to join.
    const previous = this.#flushing ?? new Promise<void>((resolve) => setImmediate(resolve));
    const next = (): void => {
      this.#scheduled = false;
      this.#flushing = this.#flush().finally(() => {
        this.#flushing = undefined;
      });
    };
    void previous.then(next, next);
  }

  async #flush(): Promise<void> {
    const assertions = this.#assertions;
    const consumptions = this.#consumptions;
    this.#assertions = [];
    this.#consumptions = new Map();
    const batches: Array<Promise<void>> = [];
    if (assertions.length > 0) {
      batches.push(decideBatch(assertions, (winners) => {
        const batch = JSON.stringify(winners.map(({ id, payload, expiresAt }) => ({ id, payload, expiresAt })));
        return this.#database.all<{ id: string }>(RECORD_ASSERTIONS, [batch, this.#now()]);
      }));
    }
    for (const [model, claims] of consumptions) {
      batches.push(decideBatch(claims, (winners) =>
        this.#database.all<{ id: string }>(CONSUME, [this.#now(), model, JSON.stringify(winners.map(({ id }) => id))]),
      ));
    }
    await Promise.all(batches);
  }
}

/**
 * Runs one batch: a repeated id loses to its first occurrence at once (as the store would decide), the rest are
 * decided by `store`, which returns the ids that won. A failed statement fails every claim it carried.
 */
async function decideBatch<C extends Claim>(claims: C[], store: (candidates: C[]) => Promise<Array<{ id: string }>>): Promise<void> {
  const seen = new Set<string>();
  const candidates: C[] = [];
  for (const claim of claims) {
    if (seen.has(claim.id)) claim.decide(false);
    else {
      seen.add(claim.id);
      candidates.push(claim);
    }
  }
  try {
    const won = new Set((await store(candidates)).map((row) => row.id));
    for (const claim of candidates) claim.decide(won.has(claim.id));
  } catch (error) {
    for (const claim of candidates) claim.fail(error);
  }
}
