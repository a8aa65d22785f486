import { randomUUID } from 'node:crypto';
import type { Database } from './database.js';
import type { Migration } from './migration.js';

export const stationSettingsMigrations: readonly Migration[] = [
  { id: 'settings-001-table', sql: 'CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)' },
];

/** Non-secret station settings kept in the store. */
export class StationSettings {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.#database.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', [key]))?.value;
  }

  async set(key: string, value: string): Promise<void> {
    await this.#database.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value', [key, value]);
  }

  /** A random id naming this data directory, created once: it keys the data directory's entry in the keychain. */
  async stationId(): Promise<string> {
    return this.#database.transaction(async (tx) => {
      const existing = await tx.get<{ value: string }>("SELECT value FROM settings WHERE key = 'station_id'");
      if (existing) return existing.value;
      const id = randomUUID();
      await tx.run("INSERT INTO settings (key, value) VALUES ('station_id', ?)", [id]);
      return id;
    });
  }
}
