import type { TokenDescription } from '../../core/schemas/token-description.js';
import type { SourceProblem, TokenRegistry } from '../tokens/token-registry.js';
import type { Token } from '../tokens/token.js';

/** How long a read waits for the first description of a token that has just appeared. */
const FIRST_DESCRIPTION_WAIT_MS = 2_000;

/**
 * The last description of every present token, for readers that must never wait. A token runs one operation at
 * a time, so describing it while a signature waits for the user's PIN would wait for the PIN too (the window
 * hung on "Loading…" for as long as a PIN prompt stayed open). Descriptions are refreshed in the background when
 * tokens change or an operation ends; readers get the latest one at once.
 */
export class TokenSnapshots {
  readonly #registry: TokenRegistry;
  readonly #described = new Map<string, TokenDescription>();
  readonly #failed = new Map<string, SourceProblem>();
  readonly #inFlight = new Map<string, Promise<void>>();
  readonly #again = new Set<string>();
  readonly #onUpdate: () => void;

  constructor(registry: TokenRegistry, onUpdate: () => void) {
    this.#registry = registry;
    this.#onUpdate = onUpdate;
  }

  /**
   * Descriptions as last known, in the registry's order. A token just plugged in has no operation to wait behind,
   * so its first description is awaited (briefly); one still not described after that is left out until it is.
   */
  async current(): Promise<{ tokens: TokenDescription[]; problems: SourceProblem[] }> {
    const present = await this.#registry.readyTokens();
    const firsts = present.filter((token) => !this.#described.has(token.id) && !this.#failed.has(token.id)).map((token) => this.#describe(token));
    if (firsts.length > 0) await Promise.race([Promise.all(firsts), new Promise((resolve) => setTimeout(resolve, FIRST_DESCRIPTION_WAIT_MS).unref())]);
    const tokens = present.flatMap((token) => this.#described.get(token.id) ?? []);
    return { tokens, problems: [...this.#registry.problems(), ...this.#failed.values()] };
  }

  /** Describes every present token again (one description per token at a time); forgets tokens that went away. */
  refresh(): Promise<void> {
    const present = this.#registry.tokens();
    const ids = new Set(present.map((token) => token.id));
    for (const id of [...this.#described.keys()]) if (!ids.has(id)) this.#described.delete(id);
    for (const id of [...this.#failed.keys()]) if (!ids.has(id)) this.#failed.delete(id);
    return Promise.all(present.map((token) => this.#describe(token))).then(() => undefined);
  }

  #describe(token: Token): Promise<void> {
    const running = this.#inFlight.get(token.id);
    if (running) {
      // Asked again while a description runs: what it reads may already be stale, so describe once more after.
      this.#again.add(token.id);
      return running;
    }
    const work = token
      .describe()
      .then(
        (description) => {
          this.#described.set(token.id, description);
          this.#failed.delete(token.id);
        },
        (error: unknown) => {
          this.#failed.set(token.id, { source: token.label, message: error instanceof Error ? error.message : String(error) });
        },
      )
      .finally(() => {
        this.#inFlight.delete(token.id);
        this.#onUpdate();
        if (this.#again.delete(token.id)) void this.#describe(token);
      });
    this.#inFlight.set(token.id, work);
    return work;
  }
}
