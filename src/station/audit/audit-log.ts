import { auditEntrySchema, type AuditEntry } from '../../core/schemas/audit-entry.js';
import type { Database } from '../store/database.js';
import type { Migration } from '../store/migration.js';
import type { Clock } from '../ports/clock.js';

export const auditLogMigrations: readonly Migration[] = [
  {
    id: 'audit-001-log',
    sql: `CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      time TEXT NOT NULL,
      client_id TEXT,
      method TEXT NOT NULL,
      signer TEXT,
      document_name TEXT,
      document_digest TEXT NOT NULL,
      outcome TEXT NOT NULL,
      detail TEXT
    );
    CREATE TRIGGER audit_log_append_only_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;
    CREATE TRIGGER audit_log_append_only_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END;`,
  },
  {
    // Entries before this migration all came through the signing API, which only web pages called then.
    id: 'audit-002-source',
    sql: `ALTER TABLE audit_log ADD COLUMN source TEXT NOT NULL DEFAULT 'web-page';
    ALTER TABLE audit_log ADD COLUMN requester TEXT;`,
  },
  {
    // An attempt recorded when it starts gets a second entry when it ends, naming the first: the log stays append-only.
    id: 'audit-003-completes',
    sql: 'ALTER TABLE audit_log ADD COLUMN completes INTEGER REFERENCES audit_log(id)',
  },
  {
    // JSON list of {name, sha256}; null for the entries of one document, which document_name says in full.
    id: 'audit-004-files',
    sql: `ALTER TABLE audit_log ADD COLUMN files TEXT;`,
  },
];

/** `files` only when the attempt covered several files (a new container); one document is named by itself. */
type NewEntry = Omit<AuditEntry, 'id' | 'time' | 'files'> & Partial<Pick<AuditEntry, 'files'>>;

interface Row {
  id: number;
  time: string;
  client_id: string | null;
  method: string;
  signer: string | null;
  document_name: string | null;
  document_digest: string;
  outcome: AuditEntry['outcome'];
  detail: string | null;
  source: AuditEntry['source'];
  requester: string | null;
  files: string | null;
}

/** Every signature attempt's outcome and what started it (CLI, window, web page), append-only (triggers refuse updates and deletes), in the store. */
export class AuditLog {
  readonly #database: Database;
  readonly #clock: Clock;

  constructor(database: Database, clock: Clock) {
    this.#database = database;
    this.#clock = clock;
  }

  /** Appends `entry`; `completes` names the `started` entry of the same attempt. Returns the new entry's id. */
  async append(entry: NewEntry, completes: number | null = null): Promise<number> {
    const { lastId } = await this.#database.run(
      'INSERT INTO audit_log (time, client_id, method, signer, document_name, document_digest, outcome, detail, source, requester, completes, files) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [
        this.#clock.now().toISOString(),
        entry.clientId,
        entry.method,
        entry.signer,
        entry.documentName,
        entry.documentDigest,
        entry.outcome,
        entry.detail,
        entry.source,
        entry.requester,
        completes,
        entry.files ? JSON.stringify(entry.files) : null,
      ],
    );
    return lastId;
  }

  /** Newest first; a `started` entry only while no entry completes it (an interrupted or running attempt). */
  async list(limit = 100): Promise<AuditEntry[]> {
    const rows = await this.#database.all<Row>(
      `SELECT * FROM audit_log AS entry
       WHERE entry.outcome <> 'started' OR NOT EXISTS (SELECT 1 FROM audit_log AS done WHERE done.completes = entry.id)
       ORDER BY entry.id DESC LIMIT ?`,
      [limit],
    );
    return rows.map((row) => ({
      id: row.id,
      time: row.time,
      clientId: row.client_id,
      method: row.method,
      signer: row.signer,
      documentName: row.document_name,
      documentDigest: row.document_digest,
      outcome: row.outcome,
      detail: row.detail,
      source: row.source,
      requester: row.requester,
      files: filesOf(row),
    }));
  }
}

function filesOf(row: Row): AuditEntry['files'] {
  if (row.files !== null) return auditEntrySchema.shape.files.parse(JSON.parse(row.files));
  return row.document_name === null ? [] : [{ name: row.document_name, sha256: row.document_digest }];
}
