import * as z from 'zod';

/**
 * Identity start/complete (docs/service-interface.md#identity-start-and-complete): what the integrator's
 * server sends to `/api/identity/<client_id>/<method>/start|complete`. Unknown members are kept: the interface
 * lets integrators pass the browser client's body through unchanged.
 */
const credentials = { client_id: z.string().min(1), secret: z.string().min(1) };

export const identityStartRequestSchema = z
  .object({
    ...credentials,
    idcode: z.string().max(64).optional(),
    phone: z.string().regex(/^\+[0-9]{6,15}$/, 'must be an international number: + and digits').optional(),
    country: z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code').optional(),
    lang: z.string().max(8).optional(),
    method: z.string().optional(),
  })
  .passthrough();
export type IdentityStartRequest = z.infer<typeof identityStartRequestSchema>;

export const identityCompleteRequestSchema = z
  .object({
    ...credentials,
    /** The session token; the deployed client's Web eID finish puts the authentication token object here instead. */
    token: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).optional(),
    /** ZealiD-type iframe identification: the provider's `code` (the session token) in place of `token`. */
    code: z.string().min(1).max(128).optional(),
    /** The deployed client's Web eID finish: the session token (start's `token`) travels as `auth_token`. */
    auth_token: z.string().min(1).max(128).optional(),
    /** Seconds the service may hold the request open waiting for the user (long poll); the station caps it. */
    timeout: z.coerce.number().min(0).max(30).optional(),
    lang: z.string().max(8).optional(),
    method: z.string().optional(),
  })
  .passthrough()
  .refine((body) => body.token !== undefined || body.code !== undefined, { message: 'token (or code) is required', path: ['token'] });
export type IdentityCompleteRequest = z.infer<typeof identityCompleteRequestSchema>;

/** Start answer: a session token plus what the user must see (challenge code, QR data), depending on the method. */
export const identityStartResponseSchema = z.object({
  token: z.string(),
  challenge: z.string().optional(),
  nonce: z.string().optional(),
  qr_code: z.string().optional(),
  redirect_uri: z.string().optional(),
});
export type IdentityStartResponse = z.infer<typeof identityStartResponseSchema>;

/** Government-issued identity data with its verification, per OpenID Identity Assurance (wallet methods only). */
export const verifiedClaimsSchema = z.object({
  verification: z.object({
    trust_framework: z.string(),
    assurance_level: z.string().optional(),
    time: z.string(),
    evidence: z.array(z.record(z.string(), z.unknown())).optional(),
  }),
  claims: z.record(z.string(), z.unknown()),
});
export type VerifiedClaims = z.infer<typeof verifiedClaimsSchema>;

/** The authenticated person: the complete call's success body without `status`. */
export const identifiedPersonSchema = z.object({
  idcode: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  country: z.string(),
  birth_date: z.string().nullable(),
  current_login_method: z.string(),
  verified_claims: verifiedClaimsSchema.optional(),
});
export type IdentifiedPerson = z.infer<typeof identifiedPersonSchema>;

export const identityCompleteResponseSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('RUNNING') }),
  identifiedPersonSchema.extend({ status: z.literal('OK') }),
]);
export type IdentityCompleteResponse = z.infer<typeof identityCompleteResponseSchema>;
