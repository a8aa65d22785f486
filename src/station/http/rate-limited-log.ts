/**
 * At most one log line per kind of event per interval, the next one saying how many were left out: a flood of
 * refused or failing requests (a full disk under TSA load) must not turn into a line, or a stack trace, per request.
 */
export class RateLimitedLog {
  readonly #intervalMs: number;
  readonly #kinds = new Map<string, { nextAt: number; suppressed: number }>();

  constructor(intervalMs: number) {
    this.#intervalMs = intervalMs;
  }

  /** Calls `write` with the number of events of this kind left out since its last line, or counts this one out. */
  note(kind: string, write: (suppressed: number) => void): void {
    const now = performance.now();
    const state = this.#kinds.get(kind);
    if (state && now < state.nextAt) {
      state.suppressed++;
      return;
    }
    this.#kinds.set(kind, { nextAt: now + this.#intervalMs, suppressed: 0 });
    write(state?.suppressed ?? 0);
  }
}
