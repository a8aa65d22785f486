import { randomBytes } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { SecretVault } from '../keychain/secret-vault.js';
import type { Database } from '../store/database.js';
import type { Clock } from '../ports/clock.js';
import { noteUnsupportedRuntime } from './note-unsupported-runtime.js';
import { DEFAULT_OIDC_LIFETIMES, type OidcLifetimes } from './oidc-lifetimes.js';
import { OidcSigningKeys } from './oidc-signing-keys.js';
import { OidcAccounts } from './oidc-accounts.js';

export interface OidcServiceDeps {
  /** The station's base address; known only once it listens, so read when the provider is first needed. */
  issuer: () => string;
  database: Database;
  vault: SecretVault;
  clients: ClientRegistry;
  clock: Clock;
  logger: Logger;
  lifetimes?: Partial<OidcLifetimes>;
}

const COOKIE_KEY = 'oidc-cookie-key';
/** Slack for relying parties' clocks when deciding that a retired key's last ID token has expired. */
const PUBLISH_SLACK_SECONDS = 300;

/**
 * The station's OpenID provider: built on first use with keys from the vault, rebuilt after a signing key
 * rotation (oidc-provider takes its keys at construction). State lives in the store, so a rebuild or a restart
 * loses no code, session or replay record.
 */
export class OidcService {
  readonly accounts: OidcAccounts;
  readonly lifetimes: OidcLifetimes;
  readonly #deps: OidcServiceDeps;
  readonly #keys: OidcSigningKeys;
  #provider: Promise<Provider> | undefined;
  /** Epoch seconds when a retired key leaves the JWKS: the provider is rebuilt without it from then on. */
  #rebuildAt: number | undefined;

  constructor(deps: OidcServiceDeps) {
    this.#deps = deps;
    this.lifetimes = { ...DEFAULT_OIDC_LIFETIMES, ...deps.lifetimes };
    this.#keys = new OidcSigningKeys(deps.database, deps.vault, deps.clock, this.lifetimes.idToken + PUBLISH_SLACK_SECONDS);
    this.accounts = new OidcAccounts(deps.database, deps.clock, this.lifetimes.session);
  }

  provider(): Promise<Provider> {
    if (this.#rebuildAt !== undefined && this.#deps.clock.now().getTime() / 1000 >= this.#rebuildAt) this.#provider = undefined;
    this.#provider ??= this.#build().catch((error: unknown) => {
      this.#provider = undefined;
      throw error;
    });
    return this.#provider;
  }

  /** A new active signing key; the old one stays in the JWKS (verify only) until its ID tokens have expired. */
  async rotateSigningKey(): Promise<string> {
    const kid = await this.#keys.rotate();
    this.#provider = undefined;
    return kid;
  }

  async #build(): Promise<Provider> {
    const { vault } = this.#deps;
    let cookieKey = await vault.get(COOKIE_KEY);
    if (!cookieKey) {
      cookieKey = new Uint8Array(randomBytes(32));
      await vault.put(COOKIE_KEY, cookieKey);
    }
    const cookieKeys = [Buffer.from(cookieKey).toString('base64url')];
    cookieKey.fill(0);
    const { keys, nextExpiry } = await this.#keys.load();
    this.#rebuildAt = nextExpiry;
    // Loaded on first use, so CLI commands that never serve OIDC never load oidc-provider.
    noteUnsupportedRuntime(this.#deps.logger);
    const { createOidcProvider } = await import('./create-oidc-provider.js');
    return createOidcProvider({
      issuer: this.#deps.issuer(),
      database: this.#deps.database,
      clients: this.#deps.clients,
      accounts: this.accounts,
      signingKeys: keys,
      cookieKeys,
      clock: this.#deps.clock,
      lifetimes: this.lifetimes,
      logger: this.#deps.logger,
    });
  }
}
