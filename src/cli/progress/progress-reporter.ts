export type ProgressStep = 'hashing' | 'waiting for PIN' | 'signing' | 'timestamping' | 'writing';

/** An operation shorter than this shows nothing: progress is for waits a person notices. */
const QUIET_MS = 1000;

/**
 * Shows which step a long operation is in, on stderr: redrawn in place on a terminal ("signing-station: hashing
 * 42%"), one plain line per step (and per tenth of a byte-counted step) when piped, so logs stay readable. Nothing
 * is shown until the operation has run for a second.
 */
export class ProgressReporter {
  readonly #output: NodeJS.WriteStream;
  readonly #startedAt = Date.now();
  #step: ProgressStep | undefined;
  #percent: number | undefined;
  #lastPrinted = '';
  #drawn = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(output: NodeJS.WriteStream = process.stderr) {
    this.#output = output;
    this.#timer = setTimeout(() => this.#draw(), QUIET_MS);
    this.#timer.unref();
  }

  /** Enters a step; `done/total` for steps that count bytes. */
  step(step: ProgressStep, done?: number, total?: number): void {
    this.#step = step;
    this.#percent = total ? Math.floor((Math.min(done ?? 0, total) / total) * 100) : undefined;
    if (Date.now() - this.#startedAt >= QUIET_MS) this.#draw();
  }

  /** Clears a redrawn line before something else is written on the terminal (a prompt, the result). */
  clear(): void {
    if (this.#drawn && this.#output.isTTY) this.#output.write('\r\x1b[K');
    this.#drawn = false;
  }

  end(): void {
    clearTimeout(this.#timer);
    this.clear();
  }

  #draw(): void {
    if (!this.#step) return;
    const percent = this.#percent === undefined ? '' : ` ${this.#percent}%`;
    if (this.#output.isTTY) {
      this.#output.write(`\r\x1b[Ksigning-station: ${this.#step}${percent}`);
      this.#drawn = true;
      return;
    }
    const line = `signing-station: ${this.#step}${this.#percent === undefined ? '' : ` ${Math.floor(this.#percent / 10) * 10}%`}`;
    if (line !== this.#lastPrinted) this.#output.write(`${line}\n`);
    this.#lastPrinted = line;
  }
}
