import { extname } from 'node:path';
import type { DeskBatchRequest, DeskBatchResponse, DeskPrepareRequest, DeskPrepareResponse, DeskSavedFile } from '../../core/schemas/desk-api.js';
import { StationError } from '../../core/errors/station-error.js';
import type { SigningSessions } from '../sessions/signing-sessions.js';
import type { ConsentBatches } from '../sessions/consent-batches.js';
import { ASICE_MEDIA_TYPE } from '../signing/asice/asic-media-types.js';
import { DESK_CLIENT_ID } from '../../core/constants.js';
import { saveWithoutOverwriting } from './output-directory.js';

export interface DeskSigningDeps {
  sessions: SigningSessions;
  /** The folder results go to now (the user may choose another between two results). */
  outputDir: () => string;
  /** Registers the station's own client at the station's origin (again, should the user have removed it). */
  registerClient: () => Promise<void>;
  /** Where a batch's documents are tied together, so the first one's consent lists them all and covers them. */
  batches: ConsentBatches;
}

/**
 * Signing from the station window, the two steps of it a web page does on its server: the window is a web page of
 * the station's own client, so it prepares its files here (the UI credential standing in for the client secret),
 * signs through the browser client and the iframe helper like any page, and then has the signed version saved
 * beside the user's other results on disk, never over a file, which no browser-facing endpoint does.
 */
export class DeskSigningService {
  readonly #deps: DeskSigningDeps;
  /** The names the user gave new containers, by document, until they are saved (a window's signing is short). */
  readonly #containerNames = new Map<string, string>();

  constructor(deps: DeskSigningDeps) {
    this.#deps = deps;
  }

  async prepare(request: DeskPrepareRequest): Promise<DeskPrepareResponse> {
    // Loaded on first use: X.509 and the revocation code stay out of what `serve` loads before it listens.
    if (request.signingCertificate) (await import('./refuse-unreachable-level.js')).refuseUnreachableLevel(request.baseline, Buffer.from(request.signingCertificate, 'base64'));
    await this.#deps.registerClient();
    const session = await this.#deps.sessions.prepare(
      {
      client_id: DESK_CLIENT_ID,
      files: request.files,
      container_type: request.containerType,
      ...(request.signingReason === undefined ? {} : { signing_reason: request.signingReason }),
      ...(request.requireSigningReason === undefined ? {} : { require_signing_reason: request.requireSigningReason }),
      ...(request.baseline === undefined ? {} : { baseline: request.baseline }),
      ...(request.visibleSignature === undefined ? {} : { visible_signature: request.visibleSignature }),
      ...(request.stampLanguage === undefined ? {} : { stamp_language: request.stampLanguage }),
      },
      { existingContainer: isExistingContainer(request) },
    );
    if (!isExistingContainer(request) && request.containerName !== undefined) this.#containerNames.set(session.docId, request.containerName.replace(/\.asice$/i, ''));
    return { clientId: DESK_CLIENT_ID, docId: session.docId, expiresAt: session.expiresAt };
  }

  /** Each PDF becomes its own signing session; the sessions form one batch, agreed to in one consent. */
  async prepareBatch(request: DeskBatchRequest): Promise<DeskBatchResponse> {
    const { files, ...shared } = request;
    const documents: DeskBatchResponse['documents'] = [];
    for (const file of files) {
      const { docId } = await this.prepare({ ...shared, files: [file], containerType: 'pdf' });
      documents.push({ fileName: file.fileName, docId });
    }
    this.#deps.batches.add(DESK_CLIENT_ID, documents.map((document) => document.docId));
    return { clientId: DESK_CLIENT_ID, documents };
  }

  /**
   * Copies the session's signed version to the output folder as "<name>.signed.pdf" or "<name>.asice" (the name the
   * user gave a new container, else its first file's), "<name> (2)…" when that is taken.
   */
  async save(docId: string): Promise<DeskSavedFile> {
    const session = await this.#deps.sessions.get(DESK_CLIENT_ID, docId);
    const signed = session.signedFile;
    if (!signed) throw new StationError('ERR_DESK_NOT_SIGNED', 'This document is not signed yet.', { status: 409 });
    const named = this.#containerNames.get(docId);
    const fileName = named === undefined ? signedFileName(signed.fileName, session.containerType) : `${named}.asice`;
    const directory = this.#deps.outputDir();
    const path = await saveWithoutOverwriting(directory, fileName, { copyOf: this.#deps.sessions.pathOf(session, signed) });
    this.#containerNames.delete(docId);
    return { path, fileName: path.slice(directory.length + 1), directory, sha256: signed.sha256 };
  }
}

/** One ASiC-E container picked alone (stored `mimetype` entry first, as EN 319 162-1 requires): sign inside it. */
function isExistingContainer(request: DeskPrepareRequest): boolean {
  if (request.containerType !== 'asice' || request.files.length !== 1) return false;
  const head = Buffer.from(request.files[0]!.fileContent.slice(0, 128), 'base64');
  return head.subarray(30, 38).toString('latin1') === 'mimetype' && head.subarray(38, 38 + ASICE_MEDIA_TYPE.length).toString('latin1') === ASICE_MEDIA_TYPE;
}

function signedFileName(name: string, containerType: 'pdf' | 'asice'): string {
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length) || 'document';
  // A signed copy signed again keeps one ".signed": "contract.signed.pdf", never "contract.signed.signed.pdf".
  const unsigned = stem.replace(/\.signed$/i, '');
  return containerType === 'asice' ? `${unsigned}.asice` : `${unsigned}.signed.pdf`;
}
