import { identifiedPersonSchema, type IdentifiedPerson } from '../../core/schemas/identity-api.js';
import type { Database } from '../store/database.js';
import type { Clock } from '../ports/clock.js';

/**
 * The people who logged in through the OIDC provider, by subject identifier, kept only as long as a login
 * session can still lead to tokens: each write drops records older than that.
 */
export class OidcAccounts {
  /** Read-through copy: this process is the store's only writer, and the token endpoint reads every account. */
  readonly #recent = new Map<string, { person: IdentifiedPerson; savedAt: number }>();
  readonly #database: Database;
  readonly #clock: Clock;
  readonly #keepSeconds: number;

  constructor(database: Database, clock: Clock, keepSeconds: number) {
    this.#database = database;
    this.#clock = clock;
    this.#keepSeconds = keepSeconds;
  }

  /** ETSI EN 319 412-1 style natural-person identifier: stable per person across methods. */
  static subjectOf(person: Pick<IdentifiedPerson, 'country' | 'idcode'>): string {
    return `PNO${person.country.toUpperCase()}-${person.idcode}`;
  }

  async save(person: IdentifiedPerson): Promise<string> {
    const sub = OidcAccounts.subjectOf(person);
    const now = this.#clock.now();
    await this.#database.run(
      `INSERT INTO oidc_accounts (sub, person, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (sub) DO UPDATE SET person = excluded.person, updated_at = excluded.updated_at`,
      [sub, JSON.stringify(person), now.toISOString()],
    );
    const cutoff = now.getTime() - this.#keepSeconds * 1000;
    await this.#database.run('DELETE FROM oidc_accounts WHERE updated_at < ?', [new Date(cutoff).toISOString()]);
    for (const [key, entry] of this.#recent) if (entry.savedAt < cutoff) this.#recent.delete(key);
    this.#recent.set(sub, { person, savedAt: now.getTime() });
    return sub;
  }

  async find(sub: string): Promise<IdentifiedPerson | undefined> {
    const recent = this.#recent.get(sub);
    if (recent) return recent.person;
    const row = await this.#database.get<{ person: string }>('SELECT person FROM oidc_accounts WHERE sub = ?', [sub]);
    return row ? identifiedPersonSchema.parse(JSON.parse(row.person)) : undefined;
  }
}
