import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Database } from '../store/database.js';
import type { SecretVault } from '../keychain/secret-vault.js';
import type { Clock } from '../ports/clock.js';
import { StationError } from '../../core/errors/station-error.js';

const generateRsa = promisify(generateKeyPair);
const vaultName = (kid: string): string => `oidc-signing-key:${kid}`;

interface KeyRow {
  kid: string;
  created_at: number;
  retired_at: number | null;
  published_until: number | null;
}

/** A private signing JWK as oidc-provider takes it; retired keys only verify, so the provider never signs with them. */
export type OidcSigningJwk = JWK & { kid: string; alg: 'RS256'; use: 'sig' };

/**
 * The provider's ID token signing keys (RSA-2048, RS256). Private keys live only in the vault (AES-GCM under the
 * keychain master key); the store keeps their lifecycle. After a rotation the old key stays published (verify
 * only) until every ID token it signed has expired, then it is deleted.
 */
export class OidcSigningKeys {
  readonly #database: Database;
  readonly #vault: SecretVault;
  readonly #clock: Clock;
  /** How long a retired key stays published: the ID token lifetime plus clock slack. */
  readonly #publishSeconds: number;

  constructor(database: Database, vault: SecretVault, clock: Clock, publishSeconds: number) {
    this.#database = database;
    this.#vault = vault;
    this.#clock = clock;
    this.#publishSeconds = publishSeconds;
  }

  /**
   * The keys for the provider: the active one first, then the retired ones still published; and when the next
   * retired key is due to leave the JWKS (epoch seconds), so the caller reloads then.
   */
  async load(): Promise<{ keys: OidcSigningJwk[]; nextExpiry: number | undefined }> {
    await this.#prune();
    let rows = await this.#rows();
    if (!rows.some((row) => row.retired_at === null)) {
      await this.#create();
      rows = await this.#rows();
    }
    const keys = await Promise.all(
      rows.map(async (row) => {
        const jwk = await this.#privateJwk(row.kid);
        return row.retired_at === null ? jwk : { ...jwk, key_ops: ['verify'] };
      }),
    );
    const expiries = rows.flatMap((row) => (row.published_until === null ? [] : [row.published_until]));
    return { keys, nextExpiry: expiries.length ? Math.min(...expiries) : undefined };
  }

  /** Makes a new key active; the previous ones stay published, verify only, until their ID tokens expired. */
  async rotate(): Promise<string> {
    const now = this.#now();
    await this.#database.run('UPDATE oidc_signing_keys SET retired_at = ?, published_until = ? WHERE retired_at IS NULL', [
      now,
      now + this.#publishSeconds,
    ]);
    return this.#create();
  }

  async #create(): Promise<string> {
    const { privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
    const exported = privateKey.export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint(exported);
    const jwk: OidcSigningJwk = { ...exported, kid, alg: 'RS256', use: 'sig' };
    const bytes = new TextEncoder().encode(JSON.stringify(jwk));
    await this.#vault.put(vaultName(kid), bytes);
    bytes.fill(0);
    await this.#database.run('INSERT INTO oidc_signing_keys (kid, created_at) VALUES (?, ?)', [kid, this.#now()]);
    return kid;
  }

  async #privateJwk(kid: string): Promise<OidcSigningJwk> {
    const bytes = await this.#vault.get(vaultName(kid));
    if (!bytes) {
      throw new StationError('ERR_OIDC_SIGNING_KEY_MISSING', `The OIDC signing key ${kid} is listed in the store but missing from the vault.`, { status: 500 });
    }
    const jwk = JSON.parse(new TextDecoder().decode(bytes)) as OidcSigningJwk;
    bytes.fill(0);
    return jwk;
  }

  async #prune(): Promise<void> {
    const expired = await this.#database.all<KeyRow>(
      'SELECT * FROM oidc_signing_keys WHERE published_until IS NOT NULL AND published_until <= ?',
      [this.#now()],
    );
    for (const row of expired) {
      await this.#vault.delete(vaultName(row.kid));
      await this.#database.run('DELETE FROM oidc_signing_keys WHERE kid = ?', [row.kid]);
    }
  }

  #rows(): Promise<KeyRow[]> {
    return this.#database.all<KeyRow>('SELECT * FROM oidc_signing_keys ORDER BY retired_at IS NOT NULL, created_at DESC');
  }

  #now(): number {
    return Math.floor(this.#clock.now().getTime() / 1000);
  }
}
