import type { StationSettings } from '../store/station-settings.js';
import type { TokenRegistry } from '../tokens/token-registry.js';

const SETTING = 'token_unlock_seconds';
/** A minute: long enough for a few signatures in a row, short enough that a token left plugged in locks itself. */
export const DEFAULT_UNLOCK_SECONDS = 60;

/**
 * How long a token stays logged in after a signature, kept in the station's settings so it holds across restarts
 * and applied to every token source that keeps logins; and "lock now", which ends a kept login at once.
 */
export class TokenUnlockTime {
  readonly #settings: Pick<StationSettings, 'get' | 'set'>;
  readonly #tokens: Pick<TokenRegistry, 'keepLoginFor' | 'lock'>;

  constructor(settings: Pick<StationSettings, 'get' | 'set'>, tokens: Pick<TokenRegistry, 'keepLoginFor' | 'lock'>) {
    this.#settings = settings;
    this.#tokens = tokens;
  }

  /** Applies the stored time (if the user ever chose one) to the token sources. */
  async apply(): Promise<void> {
    const stored = await this.#settings.get(SETTING);
    if (stored !== undefined) this.#tokens.keepLoginFor(Number(stored) * 1000);
  }

  async seconds(): Promise<number> {
    const stored = await this.#settings.get(SETTING);
    return stored === undefined ? DEFAULT_UNLOCK_SECONDS : Number(stored);
  }

  async set(seconds: number): Promise<void> {
    await this.#settings.set(SETTING, String(seconds));
    this.#tokens.keepLoginFor(seconds * 1000);
  }

  lock(tokenId: string): Promise<void> {
    return this.#tokens.lock(tokenId);
  }
}
