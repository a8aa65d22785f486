import type { ReaderDescription, TokenDescription } from '../../core/schemas/token-description.js';
import { isStationError } from '../../core/errors/station-error.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import type { Token, TokenSource } from './token.js';

/** A token source that also knows its readers (PC/SC). */
export interface ReaderView {
  readers(): ReaderDescription[];
}

/** A token source that can say what it could not do (a module that did not load, a token no module recognises). */
export interface ProblemView {
  problems(): SourceProblem[];
}

export interface SourceProblem {
  source: string;
  message: string;
  code?: string;
}

/**
 * All key holders the station can use, whatever their family. Sources start independently: one that cannot (pcscd not
 * running, a module that fails to load) is reported as a problem and the others still work. The station starts them on
 * first use, not at its own start: loading the PKCS#11 modules (their libraries, threads and slot scans) and PC/SC took
 * a good part of a start and of an idle station's memory while no page has asked for a token yet
 * (docs/performance.md#start-up). So whatever lists or uses tokens goes through `start()` (or `readyTokens()`) first.
 */
export class TokenRegistry {
  readonly #sources: TokenSource[];
  readonly #afterStart: () => void;
  readonly #problems = new Map<string, SourceProblem>();
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: Array<() => void> = [];
  #starting: Promise<void> | undefined;
  #stopped = false;

  /** @param afterStart called once the sources have started (the station logs what could not start) */
  constructor(sources: TokenSource[], afterStart: () => void = () => undefined) {
    this.#sources = sources;
    this.#afterStart = afterStart;
  }

  /**
   * Starts every source on the first call; every call resolves once they have started (or the registry was
   * stopped first) and never rejects. Listeners hear of the start, as of any change.
   */
  start(): Promise<void> {
    this.#starting ??= this.#startSources().finally(() => {
      this.#afterStart();
      this.#notify();
    });
    return this.#starting;
  }

  /** The tokens present, once the sources have started: for anything a request lists or uses. */
  async readyTokens(): Promise<Token[]> {
    await this.start();
    return this.tokens();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#starting;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    await Promise.allSettled(this.#sources.map((source) => source.stop()));
  }

  async #startSources(): Promise<void> {
    // Stopped before any use (a station closed without a token asked for): nothing to start or stop.
    if (this.#stopped) return;
    await Promise.all(
      this.#sources.map(async (source) => {
        this.#unsubscribe.push(source.onChange(() => this.#notify()));
        try {
          await source.start();
          this.#problems.delete(source.name);
        } catch (error) {
          this.#problems.set(source.name, {
            source: source.name,
            message: error instanceof Error ? error.message : String(error),
            ...(isStationError(error) ? { code: error.code } : {}),
          });
        }
      }),
    );
  }

  tokens(): Token[] {
    return this.#sources.flatMap((source) => source.tokens());
  }

  find(tokenId: string): Token | undefined {
    return this.tokens().find((token) => token.id === tokenId);
  }

  /** Descriptions for the UI and CLI; a token that fails to describe itself is left out and reported. */
  async describe(): Promise<{ tokens: TokenDescription[]; problems: SourceProblem[] }> {
    await this.start();
    const problems = this.problems();
    const described = await Promise.all(
      this.tokens().map(async (token) => {
        try {
          return await token.describe();
        } catch (error) {
          problems.push({ source: token.label, message: error instanceof Error ? error.message : String(error) });
          return undefined;
        }
      }),
    );
    return { tokens: described.filter((token): token is TokenDescription => token !== undefined), problems };
  }

  /** Sources that could not start and what each source reports it could not do. */
  problems(): SourceProblem[] {
    return [
      ...this.#problems.values(),
      ...this.#sources.flatMap((source) => ('problems' in source ? (source as TokenSource & ProblemView).problems() : [])),
    ];
  }

  readers(): ReaderDescription[] {
    return this.#sources.flatMap((source) => ('readers' in source ? (source as TokenSource & ReaderView).readers() : []));
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** How long tokens stay logged in after a signature, for every source that keeps a login. */
  keepLoginFor(ms: number): void {
    for (const source of this.#sources) source.keepLoginFor?.(ms);
  }

  /** "Lock now": the token logs out (its cached login is gone; the next signature asks the PIN). */
  async lock(tokenId: string): Promise<void> {
    const token = this.find(tokenId);
    if (!token) throw new NotFoundError('ERR_TOKEN_NOT_FOUND', 'This card or token is no longer plugged in.');
    await token.release();
    this.#notify();
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}
