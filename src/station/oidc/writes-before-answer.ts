type Outcome = { ok: true } | { ok: false; error: unknown };

/**
 * Store writes a request makes while it goes on working, and which must have committed, and succeeded, before
 * its answer leaves: the client assertion's jti and the authorization code's consumption. The token request does
 * not stop at each write: they are group-committed while it looks the grant up and signs the ID token, so the
 * fsync overlaps the RSA work instead of preceding it.
 *
 * A write may also wait for the request's next one (defer): the jti, known early, is recorded with the code's
 * consumption, known later, so that both go to the store in one group commit and the request waits for one fsync,
 * not for two in a row.
 *
 * The store still decides. A write refused at commit (a jti already recorded, a code already consumed) turns the
 * answer into that write's error, so tokens never leave on a decision the store did not confirm, and a crash
 * before the commit loses nothing that was answered.
 */
export class WritesBeforeAnswer {
  readonly #held = new WeakMap<object, Array<Promise<Outcome>>>();
  readonly #deferred = new WeakMap<object, Array<() => Promise<void>>>();

  /**
   * Ties `write` to `request`'s answer. Outside a request (nothing would wait for it) the write is awaited here
   * instead, so its outcome is never dropped.
   */
  async hold(request: object | undefined, write: Promise<void>): Promise<void> {
    if (!request) return write;
    this.#startDeferred(request);
    this.#add(request, write);
  }

  /**
   * Ties a write that need not start yet to `request`'s answer: it starts with the request's next held write, or
   * when the answer waits (settle), whichever comes first. Outside a request it starts and is awaited here.
   */
  async defer(request: object | undefined, start: () => Promise<void>): Promise<void> {
    if (!request) return start();
    const deferred = this.#deferred.get(request);
    if (deferred) deferred.push(start);
    else this.#deferred.set(request, [start]);
  }

  /** Waits for every write held for `request`; throws the error of the first that failed, in the order written. */
  async settle(request: object): Promise<void> {
    this.#startDeferred(request);
    const held = this.#held.get(request);
    if (!held) return;
    this.#held.delete(request);
    for (const outcome of await Promise.all(held)) if (!outcome.ok) throw outcome.error;
  }

  #startDeferred(request: object): void {
    const deferred = this.#deferred.get(request);
    if (!deferred) return;
    this.#deferred.delete(request);
    for (const start of deferred) this.#add(request, start());
  }

  #add(request: object, write: Promise<void>): void {
    // Settled into a value at once: a refusal must not surface as an unhandled rejection before the answer waits.
    const outcome = write.then(
      (): Outcome => ({ ok: true }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
    const held = this.#held.get(request);
    if (held) held.push(outcome);
    else this.#held.set(request, [outcome]);
  }
}
