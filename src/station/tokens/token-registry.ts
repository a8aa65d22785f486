import type { ReaderDescription, TokenDescription } from '../../core/schemas/token-description.js';
import { isStationError } from '../../core/errors/station-error.js';
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
 * All key holders the station can use, whatever their family. Sources start independently: one that cannot
 * (pcscd not running, a module that fails to load) is reported as a problem and the others still work.
 * The station starts them once it listens (loading PKCS#11 modules and PC/SC is a good part of a start), so what
 * lists or uses tokens on a request waits for `ready()` first: asked too early, it would see none.
 */
export class TokenRegistry {
  readonly #sources: TokenSource[];
  readonly #problems = new Map<string, SourceProblem>();
  readonly #listeners = new Set<() => void>();
  readonly #unsubscribe: Array<() => void> = [];
  readonly #ready: Promise<void>;
  #markReady!: () => void;
  #starting: Promise<void> | undefined;
  #stopped = false;

  constructor(sources: TokenSource[]) {
    this.#sources = sources;
    this.#ready = new Promise((resolve) => (this.#markReady = resolve));
  }

  /** Starts every source, once (later calls wait for the first); then `ready()` resolves and listeners hear of it. */
  start(): Promise<void> {
    this.#starting ??= this.#startSources().finally(() => {
      this.#markReady();
      this.#notify();
    });
    return this.#starting;
  }

  /** Resolves once the sources have started (or the registry stopped before they did); never rejects. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /** The tokens present once the sources have started: for anything a request lists or uses. */
  async readyTokens(): Promise<Token[]> {
    await this.#ready;
    return this.tokens();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#starting;
    this.#markReady();
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    await Promise.allSettled(this.#sources.map((source) => source.stop()));
  }

  async #startSources(): Promise<void> {
    // Stopped before the start came round (a station closed right after it listened): nothing to start or stop.
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
    await this.#ready;
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

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}
