import { timingSafeEqual } from 'node:crypto';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import {
  clientRegistrationInputSchema,
  type ClientRegistration,
  type ClientRegistrationInput,
} from '../../core/schemas/client-registration.js';
import type { Database } from '../store/database.js';
import type { Migration } from '../store/migration.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { SecretVault } from '../keychain/secret-vault.js';
import { parseZod } from '../validation/parse-zod.js';

export const clientRegistryMigrations: readonly Migration[] = [
  {
    id: 'clients-001-table',
    sql: `CREATE TABLE clients (
      client_id TEXT PRIMARY KEY,
      registration TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
  },
];

interface ClientRow {
  client_id: string;
  registration: string;
  created_at: string;
  updated_at: string;
}

type StoredRegistration = Omit<ClientRegistration, 'clientId' | 'hasSecret' | 'createdAt' | 'updatedAt'>;
/** What a client is registered with (URIs, keys, addresses, origins), without its secret's state or timestamps. */
export type ClientSettings = Omit<ClientRegistration, 'hasSecret' | 'createdAt' | 'updatedAt'>;

const secretName = (clientId: string): string => `client-secret:${clientId}`;

/**
 * Integrators registered with the station (docs/service-interface.md#clients): redirect URIs, public keys for
 * private_key_jwt, allowed IPs for timestamping, allowed browser origins. Their API secrets live in the vault.
 */
export class ClientRegistry {
  readonly #database: Database;
  readonly #vault: SecretVault;
  readonly #clock: Clock;

  constructor(database: Database, vault: SecretVault, clock: Clock = systemClock) {
    this.#database = database;
    this.#vault = vault;
    this.#clock = clock;
  }

  /** Adds or replaces a client. A secret, when given, replaces the stored one; otherwise the old one is kept. */
  async upsert(input: ClientRegistrationInput, secret?: Uint8Array): Promise<ClientRegistration> {
    const parsed = parseZod(clientRegistrationInputSchema, input, 'Invalid client registration');
    if (secret && secret.length < 16) {
      throw new InvalidInputError('The client secret must be at least 16 bytes.', { secret: ['too short'] });
    }
    const { clientId, ...rest } = parsed;
    const stored: StoredRegistration = {
      redirectUris: rest.redirectUris,
      allowedIps: rest.allowedIps,
      allowedOrigins: rest.allowedOrigins,
      ...(rest.jwks ? { jwks: rest.jwks } : {}),
      ...(rest.jwksUri ? { jwksUri: rest.jwksUri } : {}),
    };
    const now = this.#clock.now().toISOString();
    await this.#database.run(
      `INSERT INTO clients (client_id, registration, created_at, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(client_id) DO UPDATE SET registration = excluded.registration, updated_at = excluded.updated_at`,
      [clientId, JSON.stringify(stored), now, now],
    );
    if (secret) await this.#vault.put(secretName(clientId), secret);
    return this.get(clientId);
  }

  /**
   * Changes only the fields given (a list given replaces that list; `jwks` and `jwksUri` replace each other); the
   * rest of the registration and the secret stay as they are unless a new secret is given.
   */
  async update(clientId: string, changes: Partial<Omit<ClientRegistrationInput, 'clientId'>>, secret?: Uint8Array): Promise<ClientRegistration> {
    const { hasSecret: _hasSecret, createdAt: _createdAt, updatedAt: _updatedAt, ...current } = await this.get(clientId);
    const keys = changes.jwks ? { jwksUri: undefined } : changes.jwksUri ? { jwks: undefined } : {};
    return this.upsert({ ...current, ...keys, ...changes, clientId }, secret);
  }

  async find(clientId: string): Promise<ClientRegistration | undefined> {
    const row = await this.#database.get<ClientRow>('SELECT * FROM clients WHERE client_id = ?', [clientId]);
    return row ? this.#toRegistration(row) : undefined;
  }

  /**
   * The registration without its timestamps and without asking the vault about a secret: for the lookup made on
   * every request by a caller that never uses the secret (the OIDC provider, once per token request).
   */
  async findSettings(clientId: string): Promise<ClientSettings | undefined> {
    const row = await this.#database.get<Pick<ClientRow, 'registration'>>('SELECT registration FROM clients WHERE client_id = ?', [clientId]);
    return row ? { clientId, ...(JSON.parse(row.registration) as StoredRegistration) } : undefined;
  }

  async get(clientId: string): Promise<ClientRegistration> {
    const client = await this.find(clientId);
    if (!client) throw new NotFoundError('ERR_CLIENT_NOT_FOUND', `No client is registered with client_id "${clientId}".`);
    return client;
  }

  async list(): Promise<ClientRegistration[]> {
    const rows = await this.#database.all<ClientRow>('SELECT * FROM clients ORDER BY client_id');
    return Promise.all(rows.map((row) => this.#toRegistration(row)));
  }

  async remove(clientId: string): Promise<void> {
    const { changes } = await this.#database.run('DELETE FROM clients WHERE client_id = ?', [clientId]);
    if (changes === 0) throw new NotFoundError('ERR_CLIENT_NOT_FOUND', `No client is registered with client_id "${clientId}".`);
    await this.#vault.delete(secretName(clientId));
  }

  /** Constant-time check of an API secret sent by an integrator's server. */
  async verifySecret(clientId: string, presented: string): Promise<boolean> {
    const stored = await this.#vault.get(secretName(clientId));
    if (!stored) return false;
    const given = Buffer.from(presented, 'utf8');
    const matches = given.length === stored.length && timingSafeEqual(given, stored);
    stored.fill(0);
    return matches;
  }

  /** The plaintext secret, for the integrator-server role that forwards to a service. Caller zeroes it. */
  secret(clientId: string): Promise<Uint8Array | null> {
    return this.#vault.get(secretName(clientId));
  }

  /** Every origin any client registered: what a CORS preflight (which carries no client_id) may be allowed. */
  async allOrigins(): Promise<Set<string>> {
    return new Set((await this.list()).flatMap((client) => client.allowedOrigins));
  }

  async #toRegistration(row: ClientRow): Promise<ClientRegistration> {
    const stored = JSON.parse(row.registration) as StoredRegistration;
    return {
      clientId: row.client_id,
      ...stored,
      hasSecret: await this.#vault.has(secretName(row.client_id)),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }
}
