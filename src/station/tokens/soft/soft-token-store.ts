import { createHash } from 'node:crypto';
import { NotFoundError } from '../../../core/errors/not-found-error.js';
import type { SecretVault } from '../../keychain/secret-vault.js';
import type { Database } from '../../store/database.js';
import type { Migration } from '../../store/migration.js';
import { systemClock, type Clock } from '../../ports/clock.js';

export const softTokenMigrations: readonly Migration[] = [
  {
    id: 'soft-token-001-keys',
    sql: `CREATE TABLE soft_token_keys (
      id TEXT PRIMARY KEY,
      label TEXT NOT NULL,
      certificate BLOB NOT NULL,
      chain BLOB NOT NULL,
      imported_at TEXT NOT NULL
    )`,
  },
];

export interface StoredKey {
  /** Hex SHA-256 of the certificate's SubjectPublicKeyInfo: the same key imported twice is one entry. */
  id: string;
  label: string;
  certificate: Uint8Array;
  chain: Uint8Array[];
  importedAt: string;
}

const secretName = (id: string): string => `soft-token:key:${id}`;

/**
 * The station's own certificate store: keys imported from PKCS#12 files. The certificate is kept in clear in
 * the store; the private key (PKCS#8) only in the SecretVault, encrypted under the keychain's master key. The
 * PKCS#12 file and its password are not kept.
 */
export class SoftTokenStore {
  readonly #database: Database;
  readonly #vault: SecretVault;
  readonly #listeners = new Set<() => void>();
  readonly #clock: Clock;

  constructor(database: Database, vault: SecretVault, clock: Clock = systemClock) {
    this.#database = database;
    this.#vault = vault;
    this.#clock = clock;
  }

  /** Imports every key of the file that has its certificate in it; the password buffer is zeroed. */
  async importPkcs12(file: Uint8Array, password: Uint8Array, label?: string): Promise<StoredKey[]> {
    let entries;
    try {
      // PKCS#12 parsing (pkijs) loads on the first import, not with every station start.
      const { readPkcs12 } = await import('../../pki/pkcs12-reader.js');
      entries = await readPkcs12(file, password);
    } finally {
      password.fill(0);
    }
    const { x509 } = await import('../../pki/x509.js');
    const stored: StoredKey[] = [];
    try {
      for (const entry of entries) {
        const certificate = new x509.X509Certificate(new Uint8Array(entry.certificate));
        const id = createHash('sha256').update(Buffer.from(certificate.publicKey.rawData)).digest('hex');
        const key: StoredKey = {
          id,
          label: label ?? entry.friendlyName ?? certificate.subject,
          certificate: entry.certificate,
          chain: entry.chain,
          importedAt: this.#clock.now().toISOString(),
        };
        // Key first: a row never points at a key that is not there; a key without a row is overwritten next time.
        await this.#vault.put(secretName(id), entry.pkcs8);
        await this.#database.run(
          `INSERT INTO soft_token_keys (id, label, certificate, chain, imported_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET label = excluded.label, certificate = excluded.certificate, chain = excluded.chain`,
          [id, key.label, key.certificate, encodeChain(key.chain), key.importedAt],
        );
        stored.push(key);
      }
    } finally {
      for (const entry of entries) entry.pkcs8.fill(0);
    }
    this.#notify();
    return stored;
  }

  async list(): Promise<StoredKey[]> {
    const rows = await this.#database.all<{ id: string; label: string; certificate: Buffer; chain: Buffer; imported_at: string }>(
      'SELECT id, label, certificate, chain, imported_at FROM soft_token_keys ORDER BY imported_at, id',
    );
    return rows.map((row) => ({
      id: row.id,
      label: row.label,
      certificate: new Uint8Array(row.certificate),
      chain: decodeChain(row.chain),
      importedAt: row.imported_at,
    }));
  }

  /** The PKCS#8 key: the caller zeroes it right after use. */
  async privateKey(id: string): Promise<Uint8Array> {
    const key = await this.#vault.get(secretName(id));
    if (!key) throw new NotFoundError('ERR_TOKEN_KEY_NOT_FOUND', `The station's store has no key ${id}.`);
    return key;
  }

  async remove(id: string): Promise<boolean> {
    const { changes } = await this.#database.run('DELETE FROM soft_token_keys WHERE id = ?', [id]);
    await this.#vault.delete(secretName(id));
    if (changes > 0) this.#notify();
    return changes > 0;
  }

  /** Another process (the CLI) changed the store: listeners read it again. */
  changedElsewhere(): void {
    this.#notify();
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

// The chain is a few certificates: length-prefixed DER in one blob keeps it in the row it belongs to.
function encodeChain(chain: Uint8Array[]): Buffer {
  return Buffer.concat(chain.flatMap((der) => [Buffer.from(Uint32Array.of(der.length).buffer), Buffer.from(der)]));
}

function decodeChain(blob: Buffer): Uint8Array[] {
  const chain: Uint8Array[] = [];
  for (let offset = 0; offset < blob.length; ) {
    const length = blob.readUInt32LE(offset);
    chain.push(new Uint8Array(blob.subarray(offset + 4, offset + 4 + length)));
    offset += 4 + length;
  }
  return chain;
}
