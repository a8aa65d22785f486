import { cancelled } from './client-error.js';

/**
 * One started module: its cancel signal, and waits that cancel() cuts short (with the cancel error) and
 * refresh() ends early (so the next poll goes out now).
 */
export class ModuleRun {
  readonly #abort = new AbortController();
  #wake: (() => void) | undefined;
  readonly signal = this.#abort.signal;

  cancel(): void {
    this.#abort.abort();
    this.#wake?.();
  }

  refresh(): void {
    this.#wake?.();
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        if (this.signal.aborted) reject(cancelled());
        else resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }

  /** Waits for a promise unless cancel() comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    if (this.signal.aborted) return Promise.reject(cancelled());
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(cancelled());
      this.signal.addEventListener('abort', onAbort, { once: true });
      promise.then(resolve, reject).finally(() => this.signal.removeEventListener('abort', onAbort));
    });
  }
}
