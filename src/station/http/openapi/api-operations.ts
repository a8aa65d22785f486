import type * as z from 'zod';
import { healthSchema } from '../../../core/schemas/health.js';
import {
  downloadRequestSchema,
  prepareFilesRequestSchema,
  prepareFilesResponseSchema,
  reasonAcceptRequestSchema,
  sessionRequestSchema,
  signingSessionStatusSchema,
} from '../../../core/schemas/signing-session-api.js';
import { completeSigningRequestSchema, startSigningRequestSchema, startSigningResponseSchema } from '../../../core/schemas/hash-signing-api.js';
import {
  identityCompleteRequestSchema,
  identityCompleteResponseSchema,
  identityStartRequestSchema,
  identityStartResponseSchema,
} from '../../../core/schemas/identity-api.js';
import {
  iframeAuthTokenAnswerSchema,
  iframeAuthTokenCallSchema,
  iframeCertificateAnswerSchema,
  iframeCertificateCallSchema,
  iframeSignatureAnswerSchema,
  iframeSignatureCallSchema,
} from '../../../core/schemas/iframe-protocol.js';
import { clientCreateRequestSchema, overviewSchema, pendingPromptSchema, promptAnswerSchema, uiSessionRequestSchema, uiSessionSchema } from '../../../core/schemas/admin-api.js';
import { clientRegistrationSchema } from '../../../core/schemas/client-registration.js';
import { auditEntrySchema } from '../../../core/schemas/audit-entry.js';
import { pkcs11ModuleAddRequestSchema, pkcs11ModulesViewSchema } from '../../../core/schemas/pkcs11-modules.js';

export interface ApiOperation {
  summary: string;
  /** Who may call it, as the README's HTTP API table says. */
  caller: 'anyone local' | 'integrator server (secret)' | "client's origins" | 'allowed IPs' | 'the framed page' | 'the station UI' | "the user's browser" | 'relying party';
  /** A JSON body, or another media type with no schema of ours (RFC 3161, form posts). */
  request?: z.ZodType | { mediaType: string };
  response?: z.ZodType | { mediaType: string };
}

const der = { mediaType: 'application/timestamp-reply' };
const html = { mediaType: 'text/html' };
const anyJson = { mediaType: 'application/json' };

/**
 * Every route the station serves, keyed `METHOD /path` as Fastify registers it, with the shared zod schemas of
 * its bodies. /openapi.json is built from the routes actually registered and this table: a route missing here is
 * listed as not described, which the test comparing the two refuses (test/station/http/home-page.test.ts).
 */
export const API_OPERATIONS: Readonly<Record<string, ApiOperation>> = {
  'GET /': { summary: 'This home page: what the station is and the addresses web pages use', caller: 'anyone local', response: html },
  'GET /openapi.json': { summary: 'This OpenAPI description', caller: 'anyone local', response: anyJson },
  'GET /docs/:name': { summary: 'A guide from the docs folder, as Markdown', caller: 'anyone local', response: { mediaType: 'text/markdown' } },
  'GET /api/health': { summary: 'Liveness, version and mode', caller: 'anyone local', response: healthSchema },
  'POST /api/signatures/prepare-files-for-signing': { summary: 'Upload a PDF or ASiC-E and open a signing session', caller: 'integrator server (secret)', request: prepareFilesRequestSchema, response: prepareFilesResponseSchema },
  'POST /api/signatures/signing-session/status': { summary: 'Status of a signing session', caller: "client's origins", request: sessionRequestSchema, response: signingSessionStatusSchema },
  'POST /api/signatures/signing-session/reason/accept': { summary: 'Record that the signer accepted the exact signing reason', caller: "client's origins", request: reasonAcceptRequestSchema },
  'POST /api/signatures/start-signing': { summary: 'Consent, then the digest to sign with the given certificate', caller: "client's origins", request: startSigningRequestSchema, response: startSigningResponseSchema },
  'POST /api/signatures/:method/complete': { summary: 'The signature value in, the signed document stored', caller: "client's origins", request: completeSigningRequestSchema },
  'POST /api/signatures/download-signed-file': { summary: 'The signed document of a session', caller: 'integrator server (secret)', request: downloadRequestSchema },
  'POST /api/timestamp/:client_id': { summary: 'RFC 3161 time-stamp request', caller: 'allowed IPs', request: { mediaType: 'application/timestamp-query' }, response: der },
  'POST /api/identity/:client_id/:method/start': { summary: 'Start an identification', caller: 'integrator server (secret)', request: identityStartRequestSchema, response: identityStartResponseSchema },
  'POST /api/identity/:client_id/:method/complete': { summary: 'Complete an identification: the identified person', caller: 'integrator server (secret)', request: identityCompleteRequestSchema, response: identityCompleteResponseSchema },
  'POST /integrator/:client_id/identity/start': { summary: 'Identity start from the integrator’s page; the station adds the client secret', caller: "client's origins", request: anyJson, response: identityStartResponseSchema },
  'POST /integrator/:client_id/identity/finish': { summary: 'Identity complete from the integrator’s page; the station adds the client secret', caller: "client's origins", request: anyJson, response: identityCompleteResponseSchema },
  'GET /web-element/os-broker/:client_id/:method': { summary: 'The iframe certificate helper page (query: doc_id)', caller: "client's origins", response: html },
  'GET /web-element/assets/:name': { summary: 'Script and style of the iframe helper page', caller: 'the framed page' },
  'POST /web-element/api/certificate': { summary: 'The signing certificate, after the user chose it', caller: 'the framed page', request: iframeCertificateCallSchema, response: iframeCertificateAnswerSchema },
  'POST /web-element/api/auth-token': { summary: 'A Web eID authentication token', caller: 'the framed page', request: iframeAuthTokenCallSchema, response: iframeAuthTokenAnswerSchema },
  'POST /web-element/api/signature': { summary: 'The signature over the digest the station prepared', caller: 'the framed page', request: iframeSignatureCallSchema, response: iframeSignatureAnswerSchema },
  'GET /.well-known/openid-configuration': { summary: 'OpenID Connect discovery (beta profile, sandbox)', caller: 'anyone local', response: anyJson },
  'GET /.well-known/jwks.json': { summary: 'The ID token signing keys', caller: 'anyone local', response: anyJson },
  'GET /oidc/oauth/authorize': { summary: 'Authorization code flow: the station’s login page', caller: "the user's browser", response: html },
  'GET /oidc/oauth/authorize/:uid': { summary: 'Resumes an authorization after the login page', caller: "the user's browser" },
  'POST /oidc/oauth/token': { summary: 'Code for tokens (private_key_jwt); RFC 6749 errors', caller: 'relying party', request: { mediaType: 'application/x-www-form-urlencoded' }, response: anyJson },
  'GET /oidc/assets/login.css': { summary: 'Style of the login pages', caller: "the user's browser" },
  'GET /oidc/interaction/:uid': { summary: 'Login page: choose a method', caller: "the user's browser", response: html },
  'POST /oidc/interaction/:uid/start': { summary: 'Login page: start the chosen method', caller: "the user's browser", request: { mediaType: 'application/x-www-form-urlencoded' }, response: html },
  'GET /oidc/interaction/:uid/wait': { summary: 'Login page: waits for the method to finish', caller: "the user's browser", response: html },
  'POST /oidc/interaction/:uid/consent': { summary: 'Login page: consent to share the claims', caller: "the user's browser", request: { mediaType: 'application/x-www-form-urlencoded' } },
  'GET /oidc/interaction/:uid/abort': { summary: 'Login page: cancel', caller: "the user's browser" },
  'GET /ui/*': { summary: 'The station UI (open it with the one-time link the station prints, or from the tray)', caller: 'the station UI', response: html },
  'POST /admin/api/session': { summary: 'A one-time launch token for a UI credential', caller: 'the station UI', request: uiSessionRequestSchema, response: uiSessionSchema },
  'GET /admin/api/overview': { summary: 'Mode, clients, tokens, readers and problems', caller: 'the station UI', response: overviewSchema },
  'GET /admin/api/clients': { summary: 'Registered clients', caller: 'the station UI', response: clientRegistrationSchema.array() },
  'POST /admin/api/clients': { summary: 'Register a client', caller: 'the station UI', request: clientCreateRequestSchema },
  'DELETE /admin/api/clients/:clientId': { summary: 'Remove a client', caller: 'the station UI' },
  'GET /admin/api/audit': { summary: 'The signature log (query: limit)', caller: 'the station UI', response: auditEntrySchema.array() },
  'GET /admin/api/prompts': { summary: 'Pending consent, PIN and module prompts', caller: 'the station UI', response: pendingPromptSchema.array() },
  'POST /admin/api/prompts/:id': { summary: 'Answer a prompt', caller: 'the station UI', request: promptAnswerSchema },
  'GET /admin/api/pkcs11/modules': { summary: 'User PKCS#11 modules and NSS databases', caller: 'the station UI', response: pkcs11ModulesViewSchema },
  'POST /admin/api/pkcs11/modules': { summary: 'Add a module (outside the allowlisted directories: after the user trusts its SHA-256)', caller: 'the station UI', request: pkcs11ModuleAddRequestSchema },
  'DELETE /admin/api/pkcs11/modules': { summary: 'Remove a module (query: path)', caller: 'the station UI' },
};
