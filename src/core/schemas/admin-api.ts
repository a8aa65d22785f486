import * as z from 'zod';
import { clientRegistrationInputSchema, clientRegistrationSchema } from './client-registration.js';
import { readerDescriptionSchema, tokenDescriptionSchema } from './token-description.js';
import { certificateChoiceRequestSchema, pinRequestSchema, signatureConsentRequestSchema } from './prompts.js';
import { stationModeSchema } from './station-mode.js';

/** The station UI's view of the station: GET /admin/api/overview. */
export const overviewSchema = z.object({
  station: z.object({
    name: z.string(),
    version: z.string(),
    mode: stationModeSchema,
    baseUrl: z.string(),
    dataDir: z.string(),
    keyStore: z.string(),
  }),
  clients: z.array(clientRegistrationSchema),
  tokens: z.array(tokenDescriptionSchema),
  readers: z.array(readerDescriptionSchema),
  /** Token sources that could not start (no pcscd, module failed to load), with why. */
  problems: z.array(z.object({ source: z.string(), message: z.string(), code: z.string().optional() })),
});
export type Overview = z.infer<typeof overviewSchema>;

/** POST /admin/api/clients: a registration plus, optionally, its API secret (never echoed back). */
export const clientCreateRequestSchema = z.object({
  registration: clientRegistrationInputSchema,
  secret: z.string().min(16).optional(),
});
export type ClientCreateRequest = z.input<typeof clientCreateRequestSchema>;

/** A prompt waiting for the user; it is declined by itself at `expiresAt` (the window counts down to it). */
const promptTimes = { id: z.string(), createdAt: z.string(), expiresAt: z.string() };
export const pendingPromptSchema = z.discriminatedUnion('kind', [
  z.object({ ...promptTimes, kind: z.literal('consent'), request: signatureConsentRequestSchema }),
  z.object({ ...promptTimes, kind: z.literal('pin'), request: pinRequestSchema }),
  z.object({ ...promptTimes, kind: z.literal('certificate'), request: certificateChoiceRequestSchema }),
]);
export type PendingPrompt = z.infer<typeof pendingPromptSchema>;

/** POST /admin/api/prompts/:id — the user's answer; `cancel` answers any kind. */
export const promptAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('consent'), accept: z.boolean() }),
  z.object({ kind: z.literal('pin'), pin: z.string().min(1).max(64) }),
  z.object({ kind: z.literal('certificate'), index: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('cancel') }),
]);
export type PromptAnswer = z.infer<typeof promptAnswerSchema>;

/** POST /admin/api/session: the one-time launch token from the station's UI link, exchanged for a credential. */
export const uiSessionRequestSchema = z.object({ launchToken: z.string().min(16).max(128) });
export type UiSessionRequest = z.infer<typeof uiSessionRequestSchema>;

/** The UI credential, sent back as `Authorization: Bearer <credential>` on every /admin/api call. */
export const uiSessionSchema = z.object({ credential: z.string(), expiresInSeconds: z.number().int().positive() });
export type UiSession = z.infer<typeof uiSessionSchema>;

const verifiedFileSchema = z.object({
  fileName: z.string().min(1).max(255),
  content: z.string().min(1).max(48 * 1024 * 1024).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64'),
});

/**
 * POST /admin/api/verify: a file the window's verify screen checks (base64), answered with a DocumentVerification;
 * `data`: the file a timestamp (.tsr) or detached signature is over, when the window has it.
 */
export const verifyRequestSchema = verifiedFileSchema.extend({ data: verifiedFileSchema.optional() });
export type VerifyRequest = z.infer<typeof verifyRequestSchema>;
