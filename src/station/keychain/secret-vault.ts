import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Migration } from '../store/migration.js';
import type { Database } from '../store/database.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { KeyStore } from '../ports/key-store.js';
import { VaultError } from './vault-error.js';

export const secretVaultMigrations: readonly Migration[] = [
  {
    id: 'vault-001-secrets',
    sql: `CREATE TABLE secrets (
      name TEXT PRIMARY KEY,
      nonce BLOB NOT NULL,
      ciphertext BLOB NOT NULL,
      updated_at TEXT NOT NULL
    )`,
  },
];

/**
 * Secrets at rest (client secrets, private keys of the TSA, OIDC and imported PKCS#12 files): AES-256-GCM in the
 * store, under a master key that lives only in the OS keychain (KeyStore port). The secret's name is the
 * additional authenticated data, so a ciphertext moved to another name does not decrypt.
 */
export class SecretVault {
  readonly #database: Database;
  readonly #masterKey: Buffer;
  readonly #clock: Clock;

  private constructor(database: Database, masterKey: Buffer, clock: Clock) {
    this.#database = database;
    this.#masterKey = masterKey;
    this.#clock = clock;
  }

  /** Loads the master key for `account` from the key store, creating it on first use. */
  static async open(database: Database, keyStore: KeyStore, account: string, clock: Clock = systemClock): Promise<SecretVault> {
    let key = await keyStore.get(account);
    if (!key) {
      const existing = await database.get<{ n: number }>('SELECT COUNT(*) AS n FROM secrets');
      if (existing && existing.n > 0) {
        throw new VaultError(
          'ERR_VAULT_MASTER_KEY_MISSING',
          `The store holds encrypted secrets but ${keyStore.description} has no master key for them (account ${account}). ` +
            'Was the keychain reset, or is this data directory from another user or machine?',
          { status: 500 },
        );
      }
      key = new Uint8Array(randomBytes(32));
      await keyStore.set(account, key);
    }
    if (key.length !== 32) {
      throw new VaultError('ERR_VAULT_MASTER_KEY_INVALID', `The master key in ${keyStore.description} is not 32 bytes.`);
    }
    return new SecretVault(database, Buffer.from(key), clock);
  }

  async put(name: string, value: Uint8Array): Promise<void> {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#masterKey, nonce);
    cipher.setAAD(Buffer.from(name, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(value), cipher.final(), cipher.getAuthTag()]);
    await this.#database.run(
      `INSERT INTO secrets (name, nonce, ciphertext, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET nonce = excluded.nonce, ciphertext = excluded.ciphertext, updated_at = excluded.updated_at`,
      [name, nonce, ciphertext, this.#clock.now().toISOString()],
    );
  }

  /** The plaintext, or null when no secret has that name. The caller zeroes it when done with it. */
  async get(name: string): Promise<Uint8Array | null> {
    const row = await this.#database.get<{ nonce: Buffer; ciphertext: Buffer }>(
      'SELECT nonce, ciphertext FROM secrets WHERE name = ?',
      [name],
    );
    if (!row) return null;
    const tag = row.ciphertext.subarray(row.ciphertext.length - 16);
    const decipher = createDecipheriv('aes-256-gcm', this.#masterKey, row.nonce);
    decipher.setAAD(Buffer.from(name, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return new Uint8Array(Buffer.concat([decipher.update(row.ciphertext.subarray(0, -16)), decipher.final()]));
    } catch (cause) {
      throw new VaultError('ERR_VAULT_SECRET_CORRUPT', `The stored secret ${name} does not decrypt: it was altered or the master key changed.`, { cause });
    }
  }

  async has(name: string): Promise<boolean> {
    return (await this.#database.get('SELECT 1 FROM secrets WHERE name = ?', [name])) !== undefined;
  }

  async delete(name: string): Promise<void> {
    await this.#database.run('DELETE FROM secrets WHERE name = ?', [name]);
  }
}
