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

/** One use as the flush statement reads it from its JSON array parameter. */
interface Use {
  model: string;
  id: string;
  payload: string;
  expiresAt: number;
}

const REPLAY_DETECTION = 'ReplayDetection';

/**
 * A whole flush, jtis and code uses alike, in one statement: the batch travels as one JSON array parameter (the
 * SQL text, and the prepared statement behind it, never change) and RETURNING names the uses that won.
 * - A jti is inserted, or takes the place of an expired record of the same jti (the conflict's WHERE).
 * - A code use is an update of the stored code where it is not consumed yet. It is written as an upsert so that
 *   it can share the statement with the jtis: the SELECT only lets through uses of codes that exist, so the
 *   insert always meets its conflict and never creates a row, and the update's WHERE refuses a consumed code.
 * One statement is one implicit transaction: the flush commits (one fsync, synchronous=FULL) or fails as a whole,
 * in one trip to the store's thread instead of four (BEGIN, one statement per kind, COMMIT).
 */
const RECORD_USES = `
  INSERT INTO oidc_models (model, id, payload, expires_at, consumed_at)
  SELECT use.model, use.id, use.payload, use.expires_at, CASE WHEN use.model = '${REPLAY_DETECTION}' THEN NULL ELSE ?1 END
  FROM (
    SELECT json_extract(value, '$.model') AS model, json_extract(value, '$.id') AS id,
      json_extract(value, '$.payload') AS payload, json_extract(value, '$.expiresAt') AS expires_at
    FROM json_each(?2)
  ) AS use
  WHERE use.model = '${REPLAY_DETECTION}' OR EXISTS (SELECT 1 FROM oidc_models AS stored WHERE stored.model = use.model AND stored.id = use.id)
  ON CONFLICT (model, id) DO UPDATE SET
    payload = CASE WHEN excluded.model = '${REPLAY_DETECTION}' THEN excluded.payload ELSE oidc_models.payload END,
    expires_at = CASE WHEN excluded.model = '${REPLAY_DETECTION}' THEN excluded.expires_at ELSE oidc_models.expires_at END,
    consumed_at = excluded.consumed_at
  WHERE CASE WHEN excluded.model = '${REPLAY_DETECTION}' THEN oidc_models.expires_at <= ?1 ELSE oidc_models.consumed_at IS NULL END
  RETURNING model, id`;

/**
 * The token endpoint's one-time uses, decided by the store: a client assertion's jti recorded (a replay loses)
 * and an authorization code consumed (a second use loses). Uses arriving in the same turn of the event loop go
 * to the store together, in one conditional statement (RECORD_USES), instead of a statement and a thread-pool
 * trip each: a commit is an fsync, the longest wait of a token request, and the jti of one request and the code
 * of the one before it would otherwise each pay for their own. Nobody is told a use won before that commit.
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
    if (model === REPLAY_DETECTION) throw new TypeError('A client assertion is recorded (recordAssertion), not consumed');
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
    const { claims, uses } = this.#takeUses();
    if (claims.length === 0) return;
    try {
      const won = await this.#database.all<{ model: string; id: string }>(RECORD_USES, [this.#now(), JSON.stringify(uses)]);
      const winners = new Set(won.map(({ model, id }) => useKey(model, id)));
      claims.forEach((claim, index) => claim.decide(winners.has(useKey(uses[index]!.model, claim.id))));
    } catch (error) {
      for (const claim of claims) claim.fail(error);
    }
  }

  /** The uses waiting so far, each repeated one already decided against (see firstOfEach), beside their claims. */
  #takeUses(): { claims: Claim[]; uses: Use[] } {
    const claims: Claim[] = [];
    const uses: Use[] = [];
    for (const assertion of firstOfEach(this.#assertions)) {
      claims.push(assertion);
      uses.push({ model: REPLAY_DETECTION, id: assertion.id, payload: assertion.payload, expiresAt: assertion.expiresAt });
    }
    for (const [model, consumptions] of this.#consumptions) {
      for (const consumption of firstOfEach(consumptions)) {
        claims.push(consumption);
        // A code use's payload and expiry are never written (its row exists, so the upsert updates consumed_at only).
        uses.push({ model, id: consumption.id, payload: '', expiresAt: 0 });
      }
    }
    this.#assertions = [];
    this.#consumptions = new Map();
    return { claims, uses };
  }
}

const useKey = (model: string, id: string): string => `${model}\u0000${id}`;

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
