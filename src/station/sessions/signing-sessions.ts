import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { SignatureBaseline } from '../../core/schemas/signature-baseline.js';
import type { VisibleSignaturePlacement } from '../../core/schemas/visible-signature-placement.js';
import type { StampLanguage } from '../../core/schemas/stamp-language.js';
import type { ExpectedSigner } from '../../core/schemas/remote-signing-api.js';
import type { ContainerType, PrepareFilesRequest, SigningSessionStatus } from '../../core/schemas/signing-session-api.js';
import { StationError } from '../../core/errors/station-error.js';
import type { Database } from '../store/database.js';
import type { Migration } from '../store/migration.js';
import type { Clock } from '../ports/clock.js';
import { writeFileAtomic } from '../files/write-file-atomic.js';
import { ReasonMismatchError, ReasonNotAcceptedError, SessionExpiredError, SessionNotFoundError } from './signing-session-errors.js';
import { removeStaleStagingFiles } from '../files/remove-stale-staging-files.js';
import { loadSignatureEngine } from './load-signature-engine.js';
import { StagedDocument } from './staged-document.js';
import type { StreamedPrepareRequest } from './streamed-prepare-request.js';

export const signingSessionMigrations: readonly Migration[] = [
  {
    id: 'sessions-001-documents',
    sql: `CREATE TABLE signing_sessions (
      doc_id TEXT PRIMARY KEY,
      client_id TEXT NOT NULL,
      container_type TEXT NOT NULL,
      files TEXT NOT NULL,
      signing_reason TEXT,
      require_signing_reason INTEGER NOT NULL,
      round INTEGER NOT NULL DEFAULT 0,
      reason_accepted_at TEXT,
      reason_accepted_round INTEGER,
      user_status TEXT,
      signed_file TEXT,
      signer TEXT,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX signing_sessions_expiry ON signing_sessions (expires_at);`,
  },
  {
    id: 'sessions-002-baseline',
    sql: `ALTER TABLE signing_sessions ADD COLUMN baseline TEXT;`,
  },
  {
    id: 'sessions-003-visible-signature',
    sql: `ALTER TABLE signing_sessions ADD COLUMN visible_signature TEXT;`,
  },
  {
    id: 'sessions-004-expected-signer',
    sql: `ALTER TABLE signing_sessions ADD COLUMN expected_signer TEXT;`,
  },
  {
    id: 'sessions-005-stamp-language',
    sql: `ALTER TABLE signing_sessions ADD COLUMN stamp_language TEXT;`,
  },
];

export interface StoredFile {
  fileName: string;
  mimeType: string;
  size: number;
  sha256: string;
  /** Relative to the session's directory. */
  path: string;
}

export interface SignerIdentity {
  idcode: string;
  firstname: string;
  lastname: string;
  country: string;
  signingMethod: string;
  certificate: string;
}

export interface SigningSession {
  docId: string;
  clientId: string;
  containerType: ContainerType;
  files: StoredFile[];
  signingReason: string | undefined;
  requireSigningReason: boolean;
  /** ETSI baseline level asked for at prepare-files (default B-T). */
  baseline: SignatureBaseline;
  /** PDF: the page and box the signer chose for a visible signature, if any. */
  visibleSignature: VisibleSignaturePlacement | undefined;
  /** PDF: the visible signature's labels' language, for a placed box or a reason's stamp alike. */
  stampLanguage: StampLanguage | undefined;
  /** Prepare's `signer`: the addresses remote signing uses when start-signing gives none. */
  expectedSigner: ExpectedSigner | undefined;
  round: number;
  reasonAcceptedAt: string | undefined;
  reasonAcceptedRound: number | undefined;
  userStatus: SigningSessionStatus['signing_session_user_status'];
  signedFile: StoredFile | undefined;
  signer: SignerIdentity | undefined;
  createdAt: string;
  expiresAt: string;
  /** Absolute directory holding the originals and the signed versions. */
  directory: string;
}

interface Row {
  doc_id: string;
  client_id: string;
  container_type: ContainerType;
  files: string;
  signing_reason: string | null;
  require_signing_reason: number;
  baseline: SignatureBaseline | null;
  visible_signature: string | null;
  stamp_language: StampLanguage | null;
  expected_signer: string | null;
  round: number;
  reason_accepted_at: string | null;
  reason_accepted_round: number | null;
  user_status: SigningSessionStatus['signing_session_user_status'];
  signed_file: string | null;
  signer: string | null;
  created_at: string;
  expires_at: string;
}

export const SESSION_LIFETIME_MS = 24 * 3_600_000;

/**
 * Documents prepared for signing and their sessions. Files are written (fsynced) before the row that names
 * them is committed, so an acknowledged doc_id always has its files; originals are never modified, every signed
 * version is a new file.
 */
export class SigningSessions {
  readonly #database: Database;
  readonly #root: string;
  readonly #clock: Clock;
  /** Where documents of a prepare request are decoded while it streams in (readPrepareBody), before prepare adopts them. */
  readonly uploadsDirectory: string;

  constructor(database: Database, dataDir: string, clock: Clock) {
    this.#database = database;
    this.#root = join(dataDir, 'documents');
    this.uploadsDirectory = join(dataDir, 'uploads');
    this.#clock = clock;
  }

  /**
   * Stores the files and opens their session, after reading each document as its signature will (the PDF's whole
   * structure, an existing container's entries): a document that cannot be signed is refused here, before a row or
   * any file remains and before anyone is asked. `existingContainer`: the one file is an ASiC-E container the next
   * signature is added to (earlier signatures kept) instead of a file wrapped in a new container.
   */
  async prepare(request: Omit<PrepareFilesRequest | StreamedPrepareRequest, 'secret'>, { existingContainer = false }: { existingContainer?: boolean } = {}): Promise<SigningSession> {
    const docId = randomBytes(18).toString('base64url');
    const directory = join(this.#root, docId);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const files: StoredFile[] = [];
    try {
      for (const [index, file] of request.files.entries()) {
        const content = typeof file.fileContent === 'string' ? Buffer.from(file.fileContent, 'base64') : file.fileContent;
        const head = content instanceof StagedDocument ? content.head : content;
        if (request.container_type === 'pdf' && !head.subarray(0, 1024).includes('%PDF-')) {
          throw new StationError('ERR_INPUT_INVALID', `${file.fileName} is not a PDF document.`, { status: 400, details: { errors: { [`files.${index}.fileContent`]: ['is not a PDF'] } } });
        }
        const path = `original-${index}`;
        if (content instanceof StagedDocument) {
          // Written and fsynced as it streamed in; the session's directory is new, so the rename replaces nothing.
          await rename(content.path, join(directory, path));
          files.push({ fileName: file.fileName, mimeType: file.mimeType, size: content.size, sha256: content.sha256, path });
        } else {
          await writeFileAtomic(join(directory, path), content, { exclusive: true, mode: 0o600 });
          files.push({ fileName: file.fileName, mimeType: file.mimeType, size: content.length, sha256: createHash('sha256').update(content).digest('hex'), path });
        }
      }
      await inspectDocuments(request, existingContainer, files.map((file) => join(directory, file.path)));
    } catch (error) {
      await rm(directory, { recursive: true, force: true });
      throw error;
    }
    const now = this.#clock.now();
    const createdAt = now.toISOString();
    const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS).toISOString();
    await this.#database.run(
      `INSERT INTO signing_sessions (doc_id, client_id, container_type, files, signing_reason, require_signing_reason, baseline, visible_signature, stamp_language, expected_signer, signed_file, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        docId,
        request.client_id,
        request.container_type,
        JSON.stringify(files),
        request.signing_reason ?? null,
        request.require_signing_reason ? 1 : 0,
        request.baseline ?? null,
        request.visible_signature ? JSON.stringify(request.visible_signature) : null,
        request.stamp_language ?? null,
        request.signer ? JSON.stringify(request.signer) : null,
        // An adopted container is the current version from the start: the next signature is added to it.
        existingContainer ? JSON.stringify(files[0]) : null,
        createdAt,
        expiresAt,
      ],
    );
    return this.get(request.client_id, docId);
  }

  /** The session, for its own client only; expired sessions are reported as such. */
  async get(clientId: string, docId: string): Promise<SigningSession> {
    const row = await this.#database.get<Row>('SELECT * FROM signing_sessions WHERE doc_id = ? AND client_id = ?', [docId, clientId]);
    if (!row) throw new SessionNotFoundError();
    return this.#toSession(row);
  }

  /** Like get, but refuses a session that can no longer be acted on. */
  async getOpen(clientId: string, docId: string): Promise<SigningSession> {
    const session = await this.get(clientId, docId);
    if (this.#expired(session)) throw new SessionExpiredError(session.expiresAt);
    return session;
  }

  status(session: SigningSession): SigningSessionStatus {
    return {
      signing_session_status: session.signedFile ? 'SIGNED' : this.#expired(session) ? 'EXPIRED' : 'OPEN',
      signing_session_user_status: session.userStatus,
      ...(session.signingReason === undefined
        ? {}
        : {
            signing_reason: {
              reason_text: session.signingReason,
              accepted_at: session.reasonAcceptedAt ?? null,
              accepted_in_current_session: session.reasonAcceptedRound === session.round,
            },
          }),
      require_signing_reason: session.requireSigningReason,
    };
  }

  /**
   * Records consent only when the typed text equals the reason exactly. Both sides are NFC-normalised first, so
   * the same characters typed on another keyboard layout (composed vs decomposed accents) still match.
   */
  async acceptReason(clientId: string, docId: string, typed: string): Promise<void> {
    const session = await this.getOpen(clientId, docId);
    if (session.signingReason === undefined) {
      throw new StationError('ERR_REASON_NOT_SET', 'This document has no signing reason to accept.', { status: 409 });
    }
    if (typed.normalize('NFC') !== session.signingReason.normalize('NFC')) throw new ReasonMismatchError();
    await this.#database.run(
      "UPDATE signing_sessions SET reason_accepted_at = ?, reason_accepted_round = round, user_status = 'REASON_ACCEPTED' WHERE doc_id = ?",
      [this.#clock.now().toISOString(), docId],
    );
  }

  /** Throws unless a signature may start now: not expired, and the reason accepted when it is required. */
  async assertMaySign(clientId: string, docId: string): Promise<SigningSession> {
    const session = await this.getOpen(clientId, docId);
    if (session.requireSigningReason && session.reasonAcceptedRound !== session.round) throw new ReasonNotAcceptedError();
    return session;
  }

  async markSigningStarted(docId: string): Promise<void> {
    await this.#database.run("UPDATE signing_sessions SET user_status = 'SIGNING_STARTED' WHERE doc_id = ?", [docId]);
  }

  /** Where the next signed version of the session is written (never an existing file). */
  nextSignedPath(session: SigningSession): { relative: string; absolute: string } {
    // With its format's extension, so a signed version found in the data directory opens in the right program.
    const relative = `signed-${session.round + 1}.${session.containerType === 'pdf' ? 'pdf' : 'asice'}`;
    return { relative, absolute: join(session.directory, relative) };
  }

  /**
   * Records a signed version already written at nextSignedPath and closes the round: the next signer must accept
   * the reason again (accepted_in_current_session turns false; accepted_at keeps the last consent time).
   */
  async recordSignedFile(session: SigningSession, fileName: string, mimeType: string, signer: SignerIdentity): Promise<StoredFile> {
    const { relative, absolute } = this.nextSignedPath(session);
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(absolute)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    const file: StoredFile = { fileName, mimeType, size, sha256: hash.digest('hex'), path: relative };
    await this.#database.run(
      "UPDATE signing_sessions SET signed_file = ?, signer = ?, round = round + 1, user_status = 'SIGNED' WHERE doc_id = ?",
      [JSON.stringify(file), JSON.stringify(signer), session.docId],
    );
    return file;
  }

  /** Stores signed bytes as the next version (the hash-based flow writes through the engine instead). */
  async completeSignature(session: SigningSession, signed: Uint8Array, fileName: string, mimeType: string, signer: SignerIdentity): Promise<StoredFile> {
    await writeFileAtomic(this.nextSignedPath(session).absolute, signed, { exclusive: true, mode: 0o600 });
    return this.recordSignedFile(session, fileName, mimeType, signer);
  }

  /** Absolute path of a stored file. */
  pathOf(session: SigningSession, file: StoredFile): string {
    return join(session.directory, file.path);
  }

  async readFile(session: SigningSession, file: StoredFile): Promise<Buffer> {
    return readFile(join(session.directory, file.path));
  }

  /**
   * Deletes expired sessions (rows first, then their files), directories no row names (a crash mid-prepare), and
   * staging files of signatures and uploads a killed station left behind.
   */
  async sweep(): Promise<number> {
    const now = this.#clock.now().toISOString();
    const expired = await this.#database.all<{ doc_id: string }>('SELECT doc_id FROM signing_sessions WHERE expires_at < ?', [now]);
    await this.#database.run('DELETE FROM signing_sessions WHERE expires_at < ?', [now]);
    const known = new Set((await this.#database.all<{ doc_id: string }>('SELECT doc_id FROM signing_sessions')).map((row) => row.doc_id));
    const present = await readdir(this.#root).catch(() => [] as string[]);
    await Promise.all(present.filter((dir) => !known.has(dir)).map((dir) => rm(join(this.#root, dir), { recursive: true, force: true })));
    await Promise.all([...known].map((dir) => removeStaleStagingFiles(join(this.#root, dir))));
    await removeStaleStagingFiles(this.uploadsDirectory);
    return expired.length;
  }

  #expired(session: SigningSession): boolean {
    return !session.signedFile && this.#clock.now().toISOString() > session.expiresAt;
  }

  #toSession(row: Row): SigningSession {
    return {
      docId: row.doc_id,
      clientId: row.client_id,
      containerType: row.container_type,
      files: JSON.parse(row.files) as StoredFile[],
      signingReason: row.signing_reason ?? undefined,
      requireSigningReason: row.require_signing_reason === 1,
      baseline: row.baseline ?? 'B-T',
      visibleSignature: row.visible_signature ? (JSON.parse(row.visible_signature) as VisibleSignaturePlacement) : undefined,
      stampLanguage: row.stamp_language ?? undefined,
      expectedSigner: row.expected_signer ? (JSON.parse(row.expected_signer) as ExpectedSigner) : undefined,
      round: row.round,
      reasonAcceptedAt: row.reason_accepted_at ?? undefined,
      reasonAcceptedRound: row.reason_accepted_round ?? undefined,
      userStatus: row.user_status,
      signedFile: row.signed_file ? (JSON.parse(row.signed_file) as StoredFile) : undefined,
      signer: row.signer ? (JSON.parse(row.signer) as SignerIdentity) : undefined,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      directory: join(this.#root, row.doc_id),
    };
  }
}

/** Each document read as the engine that signs it will read it: a PDF's structure, an adopted container's entries. */
async function inspectDocuments(request: Pick<PrepareFilesRequest, 'container_type' | 'visible_signature'>, existingContainer: boolean, paths: readonly string[]): Promise<void> {
  if (request.container_type === 'pdf') {
    const page = request.visible_signature?.page;
    await (await loadSignatureEngine()).inspect('pades', paths[0]!, page === undefined ? {} : { page });
  } else if (existingContainer) {
    await (await loadSignatureEngine()).inspect('asice', paths[0]!);
  }
}
