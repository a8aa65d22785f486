import type { Database } from '../store/database.js';

const REPLAY_DETECTION = 'ReplayDetection';

/**
 * The token endpoint's one-time uses, each decided by one conditional statement in the store and committed before
 * the caller hears the outcome: a client assertion's jti recorded (a replay loses) and an authorization code
 * consumed (a second use loses). oidc-provider's own find-then-write would let two concurrent requests both win.
 */
export class OneTimeUseLedger {
  readonly #database: Database;
  readonly #now: () => number;

  constructor(database: Database, now: () => number) {
    this.#database = database;
    this.#now = now;
  }

  /**
   * Records a client assertion (by the hash oidc-provider keys it with); false if it was seen and has not expired.
   * An expired record of the same jti is taken over.
   */
  async recordAssertion(id: string, payload: string, expiresAt: number): Promise<boolean> {
    const { changes } = await this.#database.run(
      `INSERT INTO oidc_models (model, id, payload, expires_at) VALUES ('${REPLAY_DETECTION}', ?, ?, ?)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, expires_at = excluded.expires_at
       WHERE oidc_models.expires_at <= ?`,
      [id, payload, expiresAt, this.#now()],
    );
    return changes === 1;
  }

  /** Marks a stored model (an authorization code) consumed; false if it already was, or does not exist. */
  async consume(model: string, id: string): Promise<boolean> {
    if (model === REPLAY_DETECTION) throw new TypeError('A client assertion is recorded (recordAssertion), not consumed');
    const { changes } = await this.#database.run('UPDATE oidc_models SET consumed_at = ? WHERE model = ? AND id = ? AND consumed_at IS NULL', [
      this.#now(),
      model,
      id,
    ]);
    return changes === 1;
  }
}
