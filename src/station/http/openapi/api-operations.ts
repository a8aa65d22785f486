import { pinUnlockTimeSchema } from '../../../core/schemas/pin-unlock.js';
import { outputFolderSchema } from '../../../core/schemas/output-folder.js';
import type * as z from 'zod';
import { healthSchema } from '../../../core/schemas/health.js';
import {
  downloadRequestSchema,
  grantedPrepareRequestSchema,
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
import { verifyRequestSchema } from '../../../core/schemas/admin-api.js';
import { grantedDownloadRequestSchema, grantedPrepareResponseSchema } from '../../../core/schemas/signing-grant.js';
import { documentVerificationSchema } from '../../../core/schemas/verification-report.js';
import { stationStateSchema } from '../../../core/schemas/station-state.js';
import { trustAddRequestSchema, trustEuRequestSchema, trustImportRequestSchema, trustRefreshResultSchema, trustSourcesSchema, addedCertificateSchema } from '../../../core/schemas/trust-api.js';
import {
  deskIdentifyMethodSchema,
  deskIdentifyRequestSchema,
  deskPrepareRequestSchema,
  deskBatchRequestSchema,
  deskIdentifyStartedSchema,
  deskIdentifyCompleteRequestSchema,
  deskBatchResponseSchema,
  deskPrepareResponseSchema,
  deskSavedFileSchema,
  deskTimestampRequestSchema,
  deskPlacementRequestSchema,
  deskPlacementResponseSchema,
} from '../../../core/schemas/desk-api.js';

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
 * Every route the station serves, keyed `METHOD /path` as it is registered, with the shared zod schemas of
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
  'POST /api/signatures/:method/continue': { summary: 'A method’s second step before complete (sandbox simulators that ask twice)', caller: "client's origins", request: anyJson, response: anyJson },
  'POST /api/signatures/download-signed-file': { summary: 'The signed document of a session', caller: 'integrator server (secret)', request: downloadRequestSchema },
  'POST /api/timestamp/:client_id': { summary: 'RFC 3161 time-stamp request', caller: 'allowed IPs', request: { mediaType: 'application/timestamp-query' }, response: der },
  'POST /api/identity/:client_id/:method/start': { summary: 'Start an identification', caller: 'integrator server (secret)', request: identityStartRequestSchema, response: identityStartResponseSchema },
  'POST /api/identity/:client_id/:method/complete': { summary: 'Complete an identification: the identified person', caller: 'integrator server (secret)', request: identityCompleteRequestSchema, response: identityCompleteResponseSchema },
  'GET /api/identity/:client_id/:method/read-card': { summary: 'The browser clients’ readCard: starts the local ID card login (credentialed)', caller: "client's origins", response: anyJson },
  'GET /api/identity/:client_id/read-card': { summary: 'readCard at the hosted service’s path shape: the Estonian ID card login (credentialed)', caller: "client's origins", response: anyJson },
  'GET /api/identity/:client_id/zealid/get_iframe_url': { summary: 'Sandbox: the provider page the browser clients’ zealId module frames, as `url`', caller: "client's origins", response: anyJson },
  'GET /oauth/frame/:method': { summary: 'Sandbox: an iframe identification method’s provider page, framed by the client’s page (query: client_id, parent_origin)', caller: 'the framed page', response: html },
  'GET /api/chave-movel-public-key': { summary: 'Sandbox: the simulated Chave Móvel provider’s RSA public key (`publicKey`, base64 PEM) its browser client encrypts the phone, PIN and code with', caller: "client's origins", response: anyJson },
  'GET /zealid/signature/start': { summary: 'Sandbox: ZealiD signing, to the simulated provider page (query: client_id, doc_id)', caller: "the user's browser" },
  'GET /oauth/start/:method': { summary: 'Sandbox: a redirect identification method’s provider page', caller: "the user's browser", response: html },
  'GET /oauth/authorize': { summary: 'Sandbox: the simulated provider’s approve or deny page', caller: "the user's browser", response: html },
  'POST /oauth/decision/:nonce': { summary: 'Sandbox: the user’s approve or deny, back to the client’s redirect URI (or posted to the framing page)', caller: "the user's browser", request: { mediaType: 'application/x-www-form-urlencoded' } },
  'GET /sandbox/test-ca.pem': { summary: 'Sandbox: the signing simulators’ test CA (not for production)', caller: 'anyone local', response: { mediaType: 'application/x-pem-file' } },
  'GET /sandbox/outbox': { summary: 'Sandbox: one-time codes the simulators “sent” by SMS or e-mail', caller: 'anyone local', response: html },
  'GET /sandbox/outbox.json': { summary: 'Sandbox: the same outbox, for scripts', caller: 'anyone local', response: anyJson },
  'GET /sandbox/provider/sign/:id': { summary: 'Sandbox: a redirect signing method’s provider page', caller: "the user's browser", response: html },
  'POST /sandbox/provider/sign/:id': { summary: 'Sandbox: approve or deny the signature, back to the client', caller: "the user's browser", request: { mediaType: 'application/x-www-form-urlencoded' } },
  'GET /client/:file': { summary: 'The browser client: service-browser-client.js (IIFE), .mjs (ESM), .d.ts', caller: 'anyone local', response: { mediaType: 'text/javascript' } },
  'POST /integrator/:client_id/identity/start': { summary: 'Identity start from the integrator’s page; the station adds the client secret', caller: "client's origins", request: anyJson, response: identityStartResponseSchema },
  'POST /integrator/:client_id/identity/finish': { summary: 'Identity complete from the integrator’s page; the station adds the client secret', caller: "client's origins", request: anyJson, response: identityCompleteResponseSchema },
  'POST /integrator/:client_id/grant/prepare': { summary: 'Prepare from the integrator’s page with a signing grant its server signed (a server that cannot reach the station)', caller: "client's origins", request: grantedPrepareRequestSchema, response: grantedPrepareResponseSchema },
  'POST /integrator/:client_id/grant/download': { summary: 'The signed document, to the page that prepared it with a grant (its download_token)', caller: "client's origins", request: grantedDownloadRequestSchema },
  'GET /web-element/os-broker/:client_id/:method': { summary: 'The iframe certificate helper page (query: doc_id)', caller: "client's origins", response: html },
  'GET /web-element/assets/:name': { summary: 'Script and style of the iframe helper page', caller: 'the framed page' },
  'GET /web-element/api/embedder/:client_id': { summary: 'Whether the asking page’s own origin may embed this client’s helper (`registered`)', caller: "the user's browser", response: anyJson },
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
  'GET /admin/api/state': { summary: 'The window’s whole state (overview, prompts, audit, modules)', caller: 'the station UI', response: stationStateSchema },
  'GET /admin/api/events': { summary: 'The same state pushed as server-sent events whenever it changes', caller: 'the station UI', response: { mediaType: 'text/event-stream' } },
  'POST /admin/api/launch-link': { summary: 'A new one-time UI link, for `signing-station ui` (control secret from the data directory)', caller: 'anyone local', response: anyJson },
  'POST /admin/api/verify': { summary: 'Verify a signed file (the same as `signing-station verify`)', caller: 'the station UI', request: verifyRequestSchema, response: documentVerificationSchema },
  'POST /admin/api/desk/sessions': { summary: 'Files from the window as a signing session of the station’s own client', caller: 'the station UI', request: deskPrepareRequestSchema, response: deskPrepareResponseSchema },
  'GET /admin/api/tokens/unlock-time': { summary: 'How long a card or token stays logged in after a signature', caller: 'the station UI', response: pinUnlockTimeSchema },
  'PUT /admin/api/tokens/unlock-time': { summary: 'Set how long a card or token stays logged in after a signature (0: the PIN every time)', caller: 'the station UI', request: pinUnlockTimeSchema, response: pinUnlockTimeSchema },
  'POST /admin/api/tokens/:tokenId/lock': { summary: 'Lock now: the token logs out, the next signature asks the PIN', caller: 'the station UI' },
  'GET /admin/api/desk/saved': { summary: 'Download a file the window saved, by its name in the output folder', caller: 'the station UI', response: { mediaType: 'application/octet-stream' } },
  'GET /admin/api/desk/output-folder': { summary: 'Where the window saves what it signs and timestamps', caller: 'the station UI', response: outputFolderSchema },
  'PUT /admin/api/desk/output-folder': { summary: 'Choose where the window saves: an absolute path to a folder of this user’s that it can write', caller: 'the station UI', request: outputFolderSchema, response: outputFolderSchema },
  'POST /admin/api/desk/batches': { summary: 'PDFs from the window, each its own signing session, under one consent that lists them all', caller: 'the station UI', request: deskBatchRequestSchema, response: deskBatchResponseSchema },
  'POST /admin/api/desk/sessions/:docId/save': { summary: 'Save the signed document beside the user’s documents, never over a file', caller: 'the station UI', response: deskSavedFileSchema },
  'GET /admin/api/desk/identify': { summary: 'Identification methods the window can try', caller: 'the station UI', response: deskIdentifyMethodSchema.array() },
  'POST /admin/api/desk/identify': { summary: 'Start an identification from the window: its token, verification code and lapse time', caller: 'the station UI', request: deskIdentifyRequestSchema, response: deskIdentifyStartedSchema },
  'POST /admin/api/desk/identify/complete': { summary: 'Wait for the person of an identification started from the window', caller: 'the station UI', request: deskIdentifyCompleteRequestSchema, response: anyJson },
  'POST /admin/api/desk/timestamp': { summary: 'Timestamp a file with the station’s TSA; the token saved beside the user’s documents', caller: 'the station UI', request: deskTimestampRequestSchema, response: deskSavedFileSchema },
  'POST /admin/api/desk/placement': { summary: 'Where a visible signature box would go on a page of a PDF, and what the page already shows', caller: 'the station UI', request: deskPlacementRequestSchema, response: deskPlacementResponseSchema },
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
  'GET /admin/api/trust': { summary: 'Trust sources: trusted lists (last and next update, counts), added certificates, this station’s TSA', caller: 'the station UI', response: trustSourcesSchema },
  'POST /admin/api/trust/certificates': { summary: 'Trust a certificate (PEM or base64 DER); with fingerprint, only if it is that one (trust this issuer)', caller: 'the station UI', request: trustAddRequestSchema, response: addedCertificateSchema },
  'DELETE /admin/api/trust/certificates/:fingerprint': { summary: 'Stop trusting an added certificate', caller: 'the station UI' },
  'PUT /admin/api/trust/eu': { summary: 'EU trusted lists on or off', caller: 'the station UI', request: trustEuRequestSchema },
  'POST /admin/api/trust/lists': { summary: 'Import trusted lists offline (XML), each checked against its list of lists; per list its outcome', caller: 'the station UI', request: trustImportRequestSchema, response: trustRefreshResultSchema },
  'POST /admin/api/trust/refresh': { summary: 'Fetch newer trusted lists; each list’s outcome (updated, unchanged, refused and why)', caller: 'the station UI', response: trustRefreshResultSchema },
};
