import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  completeSigningRequestSchema,
  hashSigningMethodSchema,
  startSigningRequestSchema,
} from '../../core/schemas/hash-signing-api.js';
import { StationError } from '../../core/errors/station-error.js';
import { parseZod } from '../validation/parse-zod.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { UserPrompt } from '../ports/user-prompt.js';
import type { Clock } from '../ports/clock.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { TimestampClient } from '../tsa/timestamp-client.js';
import { SignatureEngine } from '../signing/signature-engine.js';
import type { SigningSession, SigningSessions } from './signing-sessions.js';
import type { PendingSignatures } from './pending-signatures.js';
import { assertClientRegistered } from './assert-client-registered.js';
import { signerIdentity } from './signer-identity.js';
import { summarizeCertificate } from '../pki/certificate-summary.js';

export interface HashSigningRouteDeps {
  sessions: SigningSessions;
  pending: PendingSignatures;
  clients: Pick<ClientRegistry, 'find'>;
  userPrompt: UserPrompt;
  audit: AuditLog;
  clock: Clock;
  timestampClient: TimestampClient;
}

const methodParams = z.object({ method: hashSigningMethodSchema });

export class SignatureDeclinedError extends StationError {
  constructor() {
    super('ERR_SIGNING_DECLINED', 'The signer declined in the station’s consent prompt.', { status: 409, retriable: true });
  }
}

/**
 * Hash-based signing (ID card, USB token, certificate store): start-signing takes the signer's certificate,
 * asks the station's own consent prompt, and hands out the digest; <method>/complete takes the signature value,
 * which the engine checks against the certificate before it writes the signed version (PAdES B-T or ASiC-E
 * XAdES B-T, timestamped by the station's TSA).
 */
export function hashSigningRoutes(deps: HashSigningRouteDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'client' as const };

    app.post('/start-signing', { config }, async (request) => {
      const body = parseZod(startSigningRequestSchema, request.body, 'Invalid start-signing request');
      await assertClientRegistered(deps.clients, body.client_id);
      const session = await deps.sessions.assertMaySign(body.client_id, body.doc_id);
      const certificate = decodeBinary(body.certificate);
      const file = currentDocument(session);
      await askConsent(deps, request, session, certificate, file.fileName, file.sha256, body.sign_type);
      await deps.sessions.markSigningStarted(session.docId);
      const output = deps.sessions.nextSignedPath(session);
      const prepared = await SignatureEngine.prepare(formatOf(session), engineInput(deps, session), {
        certificate,
        ...(session.signingReason === undefined ? {} : { reason: session.signingReason, visible: session.containerType === 'pdf' }),
        time: deps.clock.now(),
        outputPath: output.absolute,
        outputMode: 0o600,
      });
      const pending = await deps.pending.add({
        clientId: body.client_id,
        docId: body.doc_id,
        method: body.sign_type,
        certificate,
        outputPath: output.absolute,
        outputName: outputName(session),
        state: prepared.state,
      });
      return {
        status: 'OK',
        token: pending.token,
        hexDigest: prepared.dataToSignDigest,
        digest_algorithm: prepared.digestAlgorithm,
        ...(session.containerType === 'asice' ? { signedInfoDigests: [prepared.dataToSignDigest] } : {}),
      };
    });

    app.post('/:method/complete', { config }, async (request) => {
      const { method } = parseZod(methodParams, request.params, 'Unknown signing method');
      const body = parseZod(completeSigningRequestSchema, request.body, 'Invalid complete request');
      await assertClientRegistered(deps.clients, body.client_id);
      const signatureText = body.signature_value ?? body.signatures?.[0];
      if (!signatureText) throw new StationError('ERR_INPUT_INVALID', 'signature_value is required.', { status: 400, details: { errors: { signature_value: ['required'] } } });
      const notStarted = (): StationError =>
        new StationError('ERR_SIGNING_NOT_STARTED', 'No signature was started with this token for this document and method; call start-signing again.', { status: 409 });
      const pending = deps.pending.take(body.token, body.client_id, body.doc_id);
      if (!pending) throw notStarted();
      const signer = summarizeCertificate(pending.certificate, 'signer', deps.clock.now());
      let session: SigningSession | undefined;
      try {
        // A taken pending signature is finished or aborted here, never left with its prepared copy on disk.
        if (pending.method !== method) throw notStarted();
        session = await deps.sessions.assertMaySign(body.client_id, body.doc_id);
        await SignatureEngine.finish(pending.state, decodeBinary(signatureText), { outputPath: pending.outputPath, timestampClient: deps.timestampClient, outputMode: 0o600 });
      } catch (error) {
        await SignatureEngine.abort(pending.state);
        if (session) {
          const file = currentDocument(session);
          await deps.audit.append({ clientId: body.client_id, method, signer: signer.subject, documentName: file.fileName, documentDigest: file.sha256, outcome: 'failed', detail: error instanceof StationError ? error.code : 'internal error' });
        }
        throw error;
      }
      const file = currentDocument(session);
      const identity = signerIdentity(pending.certificate, method);
      const signed = await deps.sessions.recordSignedFile(session, pending.outputName, session.containerType === 'pdf' ? 'application/pdf' : 'application/vnd.etsi.asic-e+zip', identity);
      await deps.audit.append({ clientId: body.client_id, method, signer: signer.subject, documentName: file.fileName, documentDigest: file.sha256, outcome: 'signed', detail: `signed version sha256=${signed.sha256}` });
      return {
        status: 'OK',
        signing_session_status: 'SIGNED',
        signer_idcode: identity.idcode,
        signer_firstname: identity.firstname,
        signer_lastname: identity.lastname,
        signer_country: identity.country,
        signed_file_sha256: signed.sha256,
      };
    });
  };
}

async function askConsent(
  deps: HashSigningRouteDeps,
  request: FastifyRequest,
  session: SigningSession,
  certificate: Uint8Array,
  documentName: string,
  documentDigest: string,
  method: string,
): Promise<void> {
  const signer = summarizeCertificate(certificate, 'signer', deps.clock.now());
  const agreed = await deps.userPrompt.confirm({
    purpose: 'sign',
    // The real origin of the page that asked (the browser sets Origin; scripts cannot forge it), else the client.
    requester: request.headers.origin ?? `client ${session.clientId}`,
    clientId: session.clientId,
    documentName,
    documentDigest,
    signerSubject: signer.subject,
    signerIssuer: signer.issuer,
    signerSerialNumber: signer.serialNumber,
    ...(session.signingReason === undefined ? {} : { reason: session.signingReason }),
  });
  if (!agreed) {
    await deps.audit.append({ clientId: session.clientId, method, signer: signer.subject, documentName, documentDigest, outcome: 'declined', detail: null });
    throw new SignatureDeclinedError();
  }
}

function formatOf(session: SigningSession): 'pades' | 'asice' {
  return session.containerType === 'pdf' ? 'pades' : 'asice';
}

/** PAdES signs the latest version; ASiC-E adds to the latest container, or makes one from the session's files. */
function engineInput(deps: HashSigningRouteDeps, session: SigningSession): string | Array<{ path: string; name: string; mediaType: string }> {
  if (session.signedFile) return deps.sessions.pathOf(session, session.signedFile);
  if (session.containerType === 'pdf') return deps.sessions.pathOf(session, session.files[0]!);
  return session.files.map((file) => ({ path: deps.sessions.pathOf(session, file), name: file.fileName, mediaType: file.mimeType }));
}

/** The version a new signature applies to: what the consent prompt and the audit log name. */
function currentDocument(session: SigningSession): { fileName: string; sha256: string } {
  return session.signedFile ?? session.files[0]!;
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
