/**
 * The request-body bytes the station holds at once, over every route: each request with a body reserves its
 * declared length (or its route's limit, when the length is not declared) before a byte is read, and gives it back
 * when its answer is done. A reservation that would pass the cap is refused, so concurrent large bodies cannot take
 * the station's memory; one request alone is always admitted (its route's own limit bounds it), so a route whose
 * limit is above the cap still works when the station is otherwise idle.
 */
export class BodyBudget {
  readonly #capBytes: number;
  #heldBytes = 0;

  constructor(capBytes: number) {
    this.#capBytes = capBytes;
  }

  /** Reserves `bytes`; the returned release gives them back (once, however often it is called), or false when full. */
  reserve(bytes: number): (() => void) | false {
    if (this.#heldBytes > 0 && this.#heldBytes + bytes > this.#capBytes) return false;
    this.#heldBytes += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#heldBytes -= bytes;
    };
  }
}
