import type { CompleteSigningRequest, StartSigningRequest } from '../../core/schemas/hash-signing-api.js';
import { StationError } from '../../core/errors/station-error.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { UserPrompt } from '../ports/user-prompt.js';
import type { Clock } from '../ports/clock.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { AuditEntry } from '../../core/schemas/audit-entry.js';
import { failedAttemptOutcome } from '../audit/failed-attempt-outcome.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import type { SignatureEngine } from '../signing/signature-engine.js';
import type { PrepareOptions } from '../signing/signing-options.js';
import { loadSignatureEngine } from './load-signature-engine.js';
import type { SigningSession, SigningSessions, StoredFile } from './signing-sessions.js';
import type { PendingSignature, PendingSignatures } from './pending-signatures.js';
import { assertClientRegistered } from './assert-client-registered.js';
import { signerIdentity } from './signer-identity.js';
import type { CertificateSummary } from '../pki/certificate-summary.js';
import { SignatureDeclinedError } from './signature-declined-error.js';
import { RequesterGoneError } from './requester-gone-error.js';
import { SigningNotStartedError } from './signing-not-started-error.js';
import type { SigningRequestContext } from './signing-method.js';
import type { SignatureScheme } from '../tokens/token.js';
import type { ConsentBatches } from './consent-batches.js';
import { TokenRemovedError } from '../tokens/token-errors.js';
import { untilAborted } from '../prompts/until-aborted.js';

export interface HashSigningDeps {
  sessions: SigningSessions;
  pending: PendingSignatures;
  clients: Pick<ClientRegistry, 'find'>;
  userPrompt: UserPrompt;
  audit: AuditLog;
  clock: Clock;
  timestampClient: TimestampClient;
  /** Candidate issuers (the station's trusted issuers): signatures embed the signer's chain up to its root. */
  issuers?: readonly Uint8Array[];
  /**
   * The schemes the station's token holding this certificate allows its key (keySchemesOf): a token that allows
   * only PSS gets a PSS signature prepared. Absent, or undefined for a certificate, the certificate decides.
   */
  keySchemesOf?: (certificate: Uint8Array) => Promise<readonly SignatureScheme[] | undefined>;
  /** The station's own origin: signatures its window asks for are logged as the window's, others as web pages'. */
  stationOrigin?: () => string;
  /** Documents the window signs separately under one consent (a batch); without it every signature is asked. */
  batches?: ConsentBatches;
  /**
   * `signal`, also aborted when the station's token holding `certificate` is pulled out (whileTokenConnected), so
   * the consent for a key that is gone is withdrawn at once; `signal` itself when no token present holds it.
   */
  whileHolderConnected?: (certificate: Uint8Array, signal: AbortSignal) => Promise<{ signal: AbortSignal; stop(): void }>;
}

export interface HashSigningStarted {
  token: string;
  hexDigest: string;
  digestAlgorithm: 'SHA-256' | 'SHA-384' | 'SHA-512';
  /** ASiC-E: the SignedInfo digests the signer signs. */
  signedInfoDigests?: string[];
}

export interface HashSigningCompleted {
  idcode: string;
  firstname: string;
  lastname: string;
  country: string;
  signedFileSha256: string;
}

/**
 * Hash-based signing (ID card, USB token, certificate store): start takes the signer's certificate, asks the
 * station's own consent prompt and hands out the digest; complete takes the signature value, which the engine
 * checks against the certificate before it writes the signed version (PAdES or ASiC-E XAdES, timestamped by the
 * station's TSA). Every decision lives here; the HTTP layer only parses and hands over.
 */
export class HashSigningService {
  readonly #deps: HashSigningDeps;

  constructor(deps: HashSigningDeps) {
    this.#deps = deps;
  }

  async start(request: StartSigningRequest, context: SigningRequestContext): Promise<HashSigningStarted> {
    await assertClientRegistered(this.#deps.clients, request.client_id);
    const session = await this.#deps.sessions.assertMaySign(request.client_id, request.doc_id);
    const certificate = decodeBinary((request.certificate ?? request.base64_certificate)!);
    await this.#askConsent(session, certificate, request.sign_type, context);
    // The key is on one of the station's tokens (a card, USB token or store reached through the iframe helper or
    // the window): how its token lets it sign shapes the signature prepared.
    return this.#begin(session, certificate, request.sign_type, context.origin, await this.#deps.keySchemesOf?.(certificate));
  }

  /**
   * A signer whose consent is given elsewhere (the sandbox simulators' simulated app or phone): the digest is
   * prepared with its certificate, without the station's own prompt, and complete() finishes it as usual.
   */
  async startElsewhere(request: { client_id: string; doc_id: string }, certificate: Uint8Array, method: string): Promise<HashSigningStarted> {
    await assertClientRegistered(this.#deps.clients, request.client_id);
    const session = await this.#deps.sessions.assertMaySign(request.client_id, request.doc_id);
    return this.#begin(session, certificate, method, undefined);
  }

  async #begin(session: SigningSession, certificate: Uint8Array, method: string, origin: string | undefined, keySchemes?: readonly SignatureScheme[]): Promise<HashSigningStarted> {
    await this.#deps.sessions.markSigningStarted(session.docId);
    // Logged before anything is prepared: an attempt the station never finishes (a crash, a page gone) stays in the
    // log as started, not completed.
    const signer = (await summarizeSigner(certificate, this.#deps.clock.now())).subject;
    const auditEntry = await this.#audit(session, method, signer, 'started', null, origin);
    const { token, prepared } = await this.#prepare(session, certificate, method, auditEntry, keySchemes);
    return {
      token,
      hexDigest: prepared.dataToSignDigest,
      digestAlgorithm: prepared.digestAlgorithm,
      ...(session.containerType === 'asice' ? { signedInfoDigests: [prepared.dataToSignDigest] } : {}),
    };
  }

  async complete(method: string, request: CompleteSigningRequest, context: Pick<SigningRequestContext, 'origin'> = { origin: undefined }): Promise<HashSigningCompleted> {
    await assertClientRegistered(this.#deps.clients, request.client_id);
    const signatureValue = signatureValueOf(request);
    const pending = request.token
      ? this.#deps.pending.take(request.token, request.client_id, request.doc_id)
      : this.#deps.pending.takeByDocument(request.client_id, request.doc_id);
    if (!pending) throw new SigningNotStartedError();
    const session = await this.#finish(pending, method, signatureValue, context.origin);
    return this.#record(session, pending, context.origin);
  }

  /** Drops a signature started elsewhere that will never be signed (the simulated user refused or timed out). */
  async abandon(token: string, clientId: string, docId: string): Promise<void> {
    const pending = this.#deps.pending.take(token, clientId, docId);
    if (!pending) return;
    await (await loadSignatureEngine()).abort(pending.state);
    const session = await this.#deps.sessions.get(clientId, docId);
    await this.#audit(session, pending.method, await this.#signerSubject(pending), 'failed', 'abandoned by the signer', undefined, pending.auditEntry);
  }

  /**
   * A prepared signature the token never made (the PIN prompt cancelled, the PIN blocked, the page gone): its
   * prepared copy is dropped and the attempt logged, so a cancelled signing is in the log like a declined one.
   */
  async unsigned(clientId: string, docId: string, error: unknown, origin: string): Promise<void> {
    const pending = this.#deps.pending.takeByDocument(clientId, docId);
    if (!pending) return;
    await (await loadSignatureEngine()).abort(pending.state);
    const session = await this.#deps.sessions.get(clientId, docId);
    const { outcome, detail } = failedAttemptOutcome(error);
    await this.#audit(session, pending.method, await this.#signerSubject(pending), outcome, detail, origin, pending.auditEntry);
  }

  async #askConsent(session: SigningSession, certificate: Uint8Array, method: string, context: SigningRequestContext): Promise<void> {
    const batches = this.#deps.batches;
    if (batches?.takeAgreement(session.clientId, session.docId, certificate, context.origin)) return;
    const signer = await summarizeSigner(certificate, this.#deps.clock.now());
    const document = currentDocument(session);
    const batch = await this.#batchDocuments(session);
    const watch = (await this.#deps.whileHolderConnected?.(certificate, context.signal)) ?? { signal: context.signal, stop: () => undefined };
    const asked = this.#deps.userPrompt.confirm(
      {
        purpose: 'sign',
        // The real origin of the page that asked (the browser sets Origin; scripts cannot forge it), else the client.
        requester: context.origin ?? `client ${session.clientId}`,
        requesterKind: context.origin === undefined ? 'client' : this.#sourceOf(context.origin),
        clientId: session.clientId,
        documents: batch.map((file) => ({ name: file.fileName, sizeBytes: file.size, sha256: file.sha256 })),
        level: session.baseline,
        documentName: document.fileName,
        documentDigest: document.sha256,
        signerSubject: signer.subject,
        signerIssuer: signer.issuer,
        signerSerialNumber: signer.serialNumber,
        ...(session.signingReason === undefined ? {} : { reason: session.signingReason }),
      },
      watch.signal,
    );
    const agreed = await untilAborted(asked, watch.signal)
      .catch((error: unknown) => {
        if (watch.signal.aborted) return false;
        throw error;
      })
      .finally(() => watch.stop());
    batches?.answered(session.clientId, session.docId, certificate, context.origin, agreed);
    if (agreed) return;
    // A prompt withdrawn because the page cancelled or went away, or its token was pulled out, is not the person's refusal.
    const refusal = context.signal.aborted ? new RequesterGoneError() : watch.signal.aborted ? new TokenRemovedError() : new SignatureDeclinedError();
    const { outcome, detail } = failedAttemptOutcome(refusal);
    await this.#audit(session, method, signer.subject, outcome, outcome === 'declined' ? null : detail, context.origin);
    throw refusal;
  }

  /** Every file this consent covers: the session's, or those of every document of its batch, in the batch's order. */
  async #batchDocuments(session: SigningSession): Promise<StoredFile[]> {
    const docIds = this.#deps.batches?.documentsWith(session.clientId, session.docId) ?? [session.docId];
    const sessions = await Promise.all(docIds.map((docId) => (docId === session.docId ? session : this.#deps.sessions.get(session.clientId, docId))));
    return sessions.flatMap((each) => signedDocuments(each));
  }

  async #prepare(
    session: SigningSession,
    certificate: Uint8Array,
    method: string,
    auditEntry: number,
    keySchemes: readonly SignatureScheme[] | undefined,
  ): Promise<{ token: string; prepared: Awaited<ReturnType<typeof SignatureEngine.prepare>> }> {
    const output = this.#deps.sessions.nextSignedPath(session);
    const prepared = await (await loadSignatureEngine()).prepare(formatOf(session), this.#engineInput(session), {
      certificate,
      ...(this.#deps.issuers ? { issuers: this.#deps.issuers } : {}),
      ...(keySchemes ? { keySchemes } : {}),
      ...(session.signingReason === undefined ? {} : { reason: session.signingReason }),
      ...visibleSignatureOptions(session),
      time: this.#deps.clock.now(),
      outputPath: output.absolute,
      outputMode: 0o600,
    });
    const pending = await this.#deps.pending.add({
      clientId: session.clientId,
      docId: session.docId,
      method,
      certificate,
      dataToSignDigest: prepared.dataToSignDigest,
      digestAlgorithm: prepared.digestAlgorithm,
      signatureScheme: prepared.signatureScheme,
      outputPath: output.absolute,
      outputName: outputName(session),
      state: prepared.state,
      auditEntry,
    });
    return { token: pending.token, prepared };
  }

  /** A taken pending signature is finished or aborted here, never left with its prepared copy on disk. */
  async #finish(pending: PendingSignature, method: string, signatureValue: Uint8Array, origin: string | undefined): Promise<SigningSession> {
    let session: SigningSession | undefined;
    try {
      if (pending.method !== method) throw new SigningNotStartedError();
      session = await this.#deps.sessions.assertMaySign(pending.clientId, pending.docId);
      await (await loadSignatureEngine()).finish(pending.state, signatureValue, { outputPath: pending.outputPath, timestampClient: this.#deps.timestampClient, baseline: session.baseline, outputMode: 0o600 });
      return session;
    } catch (error) {
      await (await loadSignatureEngine()).abort(pending.state);
      if (session) await this.#audit(session, method, await this.#signerSubject(pending), 'failed', error instanceof StationError ? error.code : 'internal error', origin, pending.auditEntry);
      throw error;
    }
  }

  async #record(session: SigningSession, pending: PendingSignature, origin: string | undefined): Promise<HashSigningCompleted> {
    const identity = await signerIdentity(pending.certificate, pending.method);
    const mimeType = session.containerType === 'pdf' ? 'application/pdf' : 'application/vnd.etsi.asic-e+zip';
    const signed = await this.#deps.sessions.recordSignedFile(session, pending.outputName, mimeType, identity);
    await this.#audit(session, pending.method, await this.#signerSubject(pending), 'signed', `signed version sha256=${signed.sha256}`, origin, pending.auditEntry);
    return { idcode: identity.idcode, firstname: identity.firstname, lastname: identity.lastname, country: identity.country, signedFileSha256: signed.sha256 };
  }

  async #signerSubject(pending: PendingSignature): Promise<string> {
    return (await summarizeSigner(pending.certificate, this.#deps.clock.now())).subject;
  }

  /** Appends the attempt's entry (`completes`: the id of its "started" entry) and returns the new entry's id. */
  async #audit(session: SigningSession, method: string, signer: string, outcome: AuditEntry['outcome'], detail: string | null, origin: string | undefined, completes: number | null = null): Promise<number> {
    const document = currentDocument(session);
    const source = this.#sourceOf(origin);
    const files = signedDocuments(session);
    return this.#deps.audit.append(
      {
        clientId: session.clientId,
        method,
        signer,
        documentName: document.fileName,
        documentDigest: document.sha256,
        ...(files.length > 1 ? { files: files.map((file) => ({ name: file.fileName, sha256: file.sha256 })) } : {}),
        outcome,
        detail,
        source,
        requester: source === 'web-page' ? (origin ?? null) : null,
      },
      completes,
    );
  }

  #sourceOf(origin: string | undefined): 'window' | 'web-page' {
    return origin !== undefined && origin === this.#deps.stationOrigin?.() ? 'window' : 'web-page';
  }

  /** PAdES signs the latest version; ASiC-E adds to the latest container, or makes one from the session's files. */
  #engineInput(session: SigningSession): string | Array<{ path: string; name: string; mediaType: string }> {
    if (session.signedFile) return this.#deps.sessions.pathOf(session, session.signedFile);
    if (session.containerType === 'pdf') return this.#deps.sessions.pathOf(session, session.files[0]!);
    return session.files.map((file) => ({ path: this.#deps.sessions.pathOf(session, file), name: file.fileName, mediaType: file.mimeType }));
  }
}

/**
 * A PDF shows its signature when the signer placed it (on that page, in that box) or when it carries a reason
 * (docs/service-interface.md#signing-reasons: the consent is shown on the document, where the engine finds room).
 */
function visibleSignatureOptions(session: SigningSession): Pick<PrepareOptions, 'visible' | 'page' | 'rect' | 'stampLanguage'> {
  if (session.containerType !== 'pdf') return {};
  const placed = session.visibleSignature;
  // The labels follow the document's signing language on either path: the placement's own, else the session's.
  const language = placed?.language ?? session.stampLanguage;
  const labels = language ? { stampLanguage: language } : {};
  if (placed) {
    const rect = { x: placed.x, y: placed.y, width: placed.width, height: placed.height };
    return { visible: true, page: placed.page, rect, ...labels };
  }
  return session.signingReason === undefined ? {} : { visible: true, ...labels };
}

function signatureValueOf(request: CompleteSigningRequest): Uint8Array {
  const text = request.signature_value ?? request.signatures?.[0];
  if (!text) throw new InvalidInputError('signature_value is required.', { signature_value: ['required'] });
  return decodeBinary(text);
}

function formatOf(session: SigningSession): 'pades' | 'asice' {
  return session.containerType === 'pdf' ? 'pades' : 'asice';
}

/** The version a new signature applies to: what the consent prompt and the audit log name. */
function currentDocument(session: SigningSession): StoredFile {
  return session.signedFile ?? session.files[0]!;
}

/** Every file a new signature covers: each file of a container made from the session's files, else the current version. */
function signedDocuments(session: SigningSession): StoredFile[] {
  return session.containerType === 'asice' && !session.signedFile ? session.files : [currentDocument(session)];
}

function outputName(session: SigningSession): string {
  if (session.containerType === 'pdf' || session.signedFile) return (session.signedFile ?? session.files[0]!).fileName;
  const first = session.files[0]!.fileName;
  return `${first.replace(/\.[^.]*$/, '') || 'container'}.asice`;
}

/**
 * Integrations send hex or base64. Even-length all-hex text is read as hex: a DER certificate in base64 starts
 * with "MI", and a base64 signature value of any real length is never all hex digits.
 */
function decodeBinary(text: string): Uint8Array {
  return new Uint8Array(/^[0-9a-fA-F]+$/.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64'));
}

/** certificate-summary.ts parses with @peculiar/x509: loaded with the first signature, not with the station. */
async function summarizeSigner(certificate: Uint8Array, now: Date): Promise<CertificateSummary> {
  const { summarizeCertificate } = await import('../pki/certificate-summary.js');
  return summarizeCertificate(certificate, 'signer', now);
}
