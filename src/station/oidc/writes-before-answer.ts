type Outcome = { ok: true } | { ok: false; error: unknown };

/**
 * Store writes a request makes while it goes on working, and which must have committed, and succeeded, before
 * its answer leaves: the client assertion's jti and the authorization code's consumption. The token request does
 * not stop at each write: they are group-committed while it looks the grant up and signs the ID token, so the
 * fsync overlaps the RSA work instead of preceding it.
 *
 * The store still decides. A write refused at commit (a jti already recorded, a code already consumed) turns the
 * answer into that write's error, so tokens never leave on a decision the store did not confirm, and a crash
 * before the commit loses nothing that was answered.
 */
export class WritesBeforeAnswer {
  readonly #held = new WeakMap<object, Array<Promise<Outcome>>>();

  /**
   * Ties `write` to `request`'s answer. Outside a request (nothing would wait for it) the write is awaited here
   * instead, so its outcome is never dropped.
   */
  async hold(request: object | undefined, write: Promise<void>): Promise<void> {
    if (!request) return write;
    // Settled into a value at once: a refusal must not surface as an unhandled rejection before the answer waits.
    const outcome = write.then(
      (): Outcome => ({ ok: true }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
    const held = this.#held.get(request);
    if (held) held.push(outcome);
    else this.#held.set(request, [outcome]);
  }

  /** Waits for every write held for `request`; throws the error of the first that failed, in the order written. */
  async settle(request: object): Promise<void> {
    const held = this.#held.get(request);
    if (!held) return;
    this.#held.delete(request);
    for (const outcome of await Promise.all(held)) if (!outcome.ok) throw outcome.error;
  }
}
