import * as z from 'zod';
import { clientIdSchema } from './client-registration.js';
import { containerTypeSchema, docIdSchema, plainFileNameSchema } from './signing-session-api.js';

/** The JWT `typ` a signing grant carries, so that no other JWT of the client (a client assertion) passes for one. */
export const SIGNING_GRANT_TYPE = 'signing-grant+jwt';

/** The longest a grant may live, from its `iat` to its `exp`. */
export const SIGNING_GRANT_MAX_LIFETIME_S = 300;

/**
 * The claims of a signing grant (docs/integrating.md#remote-backend): the integrator's server, which cannot reach
 * the station, signs with its registered key what the page may have signed: for which origin, and the exact
 * files (name and SHA-256, hex) in which container.
 */
export const signingGrantClaimsSchema = z.object({
  iss: clientIdSchema,
  iat: z.number().int(),
  exp: z.number().int(),
  jti: z.string().min(16).max(128),
  origin: z.string().min(1).max(2048),
  container_type: containerTypeSchema,
  files: z
    .array(z.object({ name: plainFileNameSchema, sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in lower-case hex') }))
    .min(1)
    .max(100),
});
export type SigningGrantClaims = z.infer<typeof signingGrantClaimsSchema>;

/** What a granted prepare answers: the session, and the capability the same page downloads the result with. */
export const grantedPrepareResponseSchema = z.object({ status: z.literal('OK'), doc_id: z.string(), expires_at: z.string(), download_token: z.string() });

/** POST /integrator/<client_id>/grant/download, from the page that prepared the document. */
export const grantedDownloadRequestSchema = z.object({
  doc_id: docIdSchema,
  download_token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not a download token'),
});
