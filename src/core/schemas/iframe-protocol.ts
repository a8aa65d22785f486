import * as z from 'zod';

/**
 * The postMessage protocol between an embedding page and the station's iframe helper
 * (`/web-element/os-broker/<client_id>/<method>`), wire-compatible with the widely deployed browser client
 * (docs/iframe-helper.md#messages). The reply tags live in a schema-free file so that the browser
 * client can use them without bundling zod.
 */
import { IFRAME_REPLY_SENDER, IFRAME_USER_CANCEL } from './iframe-reply-tags.js';
import type { WrongPin } from './browser-client-wire.js';

export { IFRAME_REPLY_SENDER, IFRAME_USER_CANCEL };

const hexDigest = z.string().regex(/^[0-9a-fA-F]{40,128}$/, 'must be a hex digest');
const base64 = z.string().max(65_536).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64');
/**
 * How long the embedding page's client still waits for this request: the station withdraws the request's prompts
 * when it passes, so no prompt outlives the page that asked (the published client sends none).
 */
const timeoutMs = z.number().int().min(1_000).max(600_000).optional();

/** Requests from the embedding page. Unknown operations and extra fields are ignored by the page. */
export const iframeRequestSchema = z.discriminatedUnion('operation', [
  z.object({ operation: z.literal('ready') }),
  z.object({ operation: z.literal('getCertificate'), country: z.string().max(8).optional(), timeoutMs }),
  z.object({
    operation: z.literal('getSignature'),
    hexDigests: z.array(hexDigest).min(1).max(1).optional(),
    signedInfoDigests: z.array(z.string().max(256)).max(1).optional(),
    /** AutoFirma-type clients: the content start-signing gave them (the prepared digest, base64) instead of hexDigests. */
    fileContent: base64.optional(),
    certificate: base64.optional(),
    country: z.string().max(8).optional(),
    timeoutMs,
  }),
  z.object({ operation: z.literal('getAuthToken'), nonce: z.string().min(16).max(256), timeoutMs }),
  /** The embedding page no longer waits (its user cancelled, its client timed out): the pending request is dropped. */
  z.object({ operation: z.literal('cancel') }),
]);
export type IframeRequest = z.infer<typeof iframeRequestSchema>;
export type IframeOperation = IframeRequest['operation'];

/** Replies to the embedding page. */
export type IframeReply =
  /** getAuthToken answers in `token`: the deployed client sends that field on as the identification's token. */
  | { sender: typeof IFRAME_REPLY_SENDER; operation: IframeOperation; status: 'OK'; certificate?: string; signatures?: string[]; token?: WebEidAuthToken }
  | { sender: typeof IFRAME_REPLY_SENDER; operation: IframeOperation; status: 'error'; message: string; code: string; retriable: boolean; result?: typeof IFRAME_USER_CANCEL; details?: { pin?: WrongPin } };

/**
 * Authentication token for ID-card / Web eID identification, modelled on Web eID's `web-eid:1.0`: the signature
 * is over SHA-256(origin) || SHA-256(nonce) with the authentication key, so a token made for one web page's origin
 * is useless to another.
 */
export const webEidAuthTokenSchema = z.object({
  format: z.literal('web-eid:1.0'),
  unverifiedCertificate: base64,
  algorithm: z.enum(['RS256', 'ES256', 'ES384', 'PS256']),
  signature: base64,
  appVersion: z.string(),
});
export type WebEidAuthToken = z.infer<typeof webEidAuthTokenSchema>;

/** The iframe page's calls to its own station (same origin), each bound to the frame ticket the page was served with. */
/** The iframe page's methods: the hash-based signing methods, and Web eID identification. */
export const WEB_EID_LOGIN_METHOD = 'ee-web-eid-login';

const frameCall = z.object({
  ticket: z.string().regex(/^[A-Za-z0-9_-]{32,64}$/),
  /** The embedding page's origin as the browser reports it to the frame (location.ancestorOrigins / referrer). */
  embeddingOrigin: z.string().url().max(512),
  timeoutMs,
});

export const iframeCertificateCallSchema = frameCall;
export const iframeSignatureCallSchema = frameCall.extend({ hexDigest, certificate: base64.optional() });
export const iframeAuthTokenCallSchema = frameCall.extend({ nonce: z.string().min(16).max(256) });
export const iframeAuthTokenAnswerSchema = z.object({ token: webEidAuthTokenSchema });
export type IframeAuthTokenAnswer = z.infer<typeof iframeAuthTokenAnswerSchema>;
export type IframeSignatureCall = z.infer<typeof iframeSignatureCallSchema>;

export const iframeCertificateAnswerSchema = z.object({ certificate: base64 });
export type IframeCertificateAnswer = z.infer<typeof iframeCertificateAnswerSchema>;
export const iframeSignatureAnswerSchema = z.object({ signatures: z.array(base64).length(1) });
export type IframeSignatureAnswer = z.infer<typeof iframeSignatureAnswerSchema>;
