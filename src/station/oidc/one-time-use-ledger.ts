import type { Database, SqlExecutor } from '../store/database.js';

interface Claim {
  id: string;
  decide: (won: boolean) => void;
  fail: (error: unknown) => void;
}

interface AssertionClaim extends Claim {
  payload: string;
  expiresAt: number;
}

/** One kind of use in a flush: the claims still to be decided, and the statement that returns the ids that won. */
interface Batch {
  candidates: Claim[];
  store: (executor: SqlExecutor) => Promise<Array<{ id: string }>>;
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
 * each. The statements of one flush commit together, in one transaction: a commit is an fsync (synchronous=FULL),
 * the longest wait of a token request, and the jti of one request and the code of the one before it would
 * otherwise each pay for their own. Nobody is told a use won before that commit.
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
    const batches = this.#takeBatches();
    if (batches.length === 0) return;
    // A single statement commits on its own; more than one share a transaction, so the flush costs one commit.
    const decide = async (executor: SqlExecutor): Promise<Array<Set<string>>> => {
      const won: Array<Set<string>> = [];
      for (const batch of batches) won.push(new Set((await batch.store(executor)).map((row) => row.id)));
      return won;
    };
    try {
      const won = await (batches.length === 1 ? decide(this.#database) : this.#database.transaction(decide));
      batches.forEach((batch, index) => {
        for (const claim of batch.candidates) claim.decide(won[index]!.has(claim.id));
      });
    } catch (error) {
      for (const batch of batches) for (const claim of batch.candidates) claim.fail(error);
    }
  }

  /** The uses waiting so far, one batch per kind, each repeated id already decided against (see firstOfEach). */
  #takeBatches(): Batch[] {
    const assertions = firstOfEach(this.#assertions);
    const consumptions = this.#consumptions;
    this.#assertions = [];
    this.#consumptions = new Map();
    const batches: Batch[] = [];
    if (assertions.length > 0) {
      const batch = JSON.stringify(assertions.map(({ id, payload, expiresAt }) => ({ id, payload, expiresAt })));
      batches.push({ candidates: assertions, store: (executor) => executor.all<{ id: string }>(RECORD_ASSERTIONS, [batch, this.#now()]) });
    }
    for (const [model, claims] of consumptions) {
      const candidates = firstOfEach(claims);
      const ids = JSON.stringify(candidates.map(({ id }) => id));
      batches.push({ candidates, store: (executor) => executor.all<{ id: string }>(CONSUME, [this.#now(), model, ids]) });
    }
    return batches;
  }
}

/** A repeated id loses to its first occurrence at once, as the store would decide; the first ones are returned. */
function firstOfEach<C extends Claim>(claims: C[]): C[] {
  const seen = new Set<string>();
  const first: C[] = [];
  for (const claim of claims) {
    if (seen.has(claim.id)) claim.decide(false);
    else {
      seen.add(claim.id);
      first.push(claim);
    }
  }
  return first;
}
