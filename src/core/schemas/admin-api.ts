import * as z from 'zod';
import { clientRegistrationInputSchema, clientRegistrationSchema } from './client-registration.js';
import { readerDescriptionSchema, tokenDescriptionSchema } from './token-description.js';
import { certificateChoiceRequestSchema, moduleTrustRequestSchema, pinRequestSchema, signatureConsentRequestSchema } from './prompts.js';
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

export const pendingPromptSchema = z.discriminatedUnion('kind', [
  z.object({ id: z.string(), kind: z.literal('consent'), createdAt: z.string(), request: signatureConsentRequestSchema }),
  z.object({ id: z.string(), kind: z.literal('pin'), createdAt: z.string(), request: pinRequestSchema }),
  z.object({ id: z.string(), kind: z.literal('certificate'), createdAt: z.string(), request: certificateChoiceRequestSchema }),
  z.object({ id: z.string(), kind: z.literal('module'), createdAt: z.string(), request: moduleTrustRequestSchema }),
]);
export type PendingPrompt = z.infer<typeof pendingPromptSchema>;

/** POST /admin/api/prompts/:id — the user's answer; `cancel` answers any kind. */
export const promptAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('consent'), accept: z.boolean() }),
  z.object({ kind: z.literal('pin'), pin: z.string().min(1).max(64) }),
  z.object({ kind: z.literal('certificate'), index: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('module'), trust: z.boolean() }),
  z.object({ kind: z.literal('cancel') }),
]);
export type PromptAnswer = z.infer<typeof promptAnswerSchema>;

/** POST /admin/api/session: the one-time launch token from the station's UI link, exchanged for a credential. */
export const uiSessionRequestSchema = z.object({ launchToken: z.string().min(16).max(128) });
export type UiSessionRequest = z.infer<typeof uiSessionRequestSchema>;

/** The UI credential, sent back as `Authorization: Bearer <credential>` on every /admin/api call. */
export const uiSessionSchema = z.object({ credential: z.string(), expiresInSeconds: z.number().int().positive() });
export type UiSession = z.infer<typeof uiSessionSchema>;
