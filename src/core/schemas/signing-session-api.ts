import * as z from 'zod';
import { expectedSignerSchema } from './remote-signing-api.js';
import { signatureBaselineSchema } from './signature-baseline.js';
import { clientIdSchema } from './client-registration.js';
import { visibleSignaturePlacementSchema } from './visible-signature-placement.js';
import { stampLanguageSchema } from './stamp-language.js';

/**
 * Container kinds the station prepares. Signing reasons apply to pdf and asice only
 * (docs/service-interface.md#signing-sessions).
 */
export const containerTypeSchema = z.enum(['pdf', 'asice']);
export type ContainerType = z.infer<typeof containerTypeSchema>;

export const docIdSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not a document id');

/**
 * A document's name as it travels into a container and onto the user's disk: no path, no control characters
 * (they break manifest.xml and terminals), none of the characters Windows refuses (`C:evil.txt` would fail only
 * after the user consented), no trailing dot or space.
 */
export const plainFileNameSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((name) => !/[\u0000-\u001f\u007f-\u009f\\/:*?"<>|]/.test(name), 'must be a plain file name without control characters or any of \\ / : * ? " < > |')
  .refine((name) => name !== '.' && name !== '..' && !/[. ]$/.test(name), 'must not be . or .. or end in a dot or space');

/** ASiC-E keeps `mimetype` and `META-INF/` for itself (ETSI EN 319 162-1): a document may not take those names. */
const reservedInAsice = (name: string): boolean => name === 'mimetype' || /^meta-inf$/i.test(name);

/** POST /api/signatures/prepare-files-for-signing (integrator server, with its secret). */
/** The client's credentials alone: checked before anything else of a large body is validated or decoded. */
export const clientSecretSchema = z.object({ client_id: clientIdSchema, secret: z.string().min(1) });

/**
 * What a prepare asks for, whoever vouches for it (the client's secret, or a grant its server signed), with each
 * document's content checked by `fileContent`: base64 text as it travels, or what the station made of it while the
 * body streamed in.
 */
function prepareFieldsWith<Content extends z.ZodType>(fileContent: Content) {
  return z.object({
    files: z
      .array(
        z.object({
          fileName: plainFileNameSchema,
          mimeType: z.string().min(1).max(255),
          fileContent,
        }),
      )
      .min(1)
      .max(100),
    container_type: containerTypeSchema,
    signing_reason: z.string().min(1).max(1000).optional(),
    require_signing_reason: z.boolean().optional(),
    /** ETSI baseline level of the signature (default B-T); B-LT and B-LTA embed revocation data. */
    baseline: signatureBaselineSchema.optional(),
    /** PDF only (a station extension, like baseline): draw the signature visibly, on this page in this box. */
    visible_signature: visibleSignaturePlacementSchema.optional(),
    /**
     * PDF only (a station extension): the language of the visible signature's labels, whether the box is placed or
     * drawn where the page has room for a reason; English when not given. A placement's own language wins.
     */
    stamp_language: stampLanguageSchema.optional(),
    /** Who signs, when the integrator knows (a station extension): remote signing falls back to these addresses. */
    signer: expectedSignerSchema.optional(),
  });
}
/** The fields the checks below read, whatever each document's content is. */
interface PrepareFields {
  files: readonly { fileName: string }[];
  container_type: string;
  signing_reason?: string | undefined;
  require_signing_reason?: boolean | undefined;
  visible_signature?: unknown;
  stamp_language?: unknown;
}

/** The checks between fields of a prepare, for every schema that carries them. */
function withPrepareChecks<Schema extends z.ZodType<PrepareFields>>(schema: Schema): Schema {
  return schema
    .refine((body) => body.container_type === 'pdf' || body.visible_signature === undefined, {
      message: 'a visible signature is placed on a pdf only',
      path: ['visible_signature'],
    })
    .refine((body) => body.container_type === 'pdf' || body.stamp_language === undefined, {
      message: 'a visible signature is drawn on a pdf only',
      path: ['stamp_language'],
    })
    .refine((body) => body.require_signing_reason !== true || body.signing_reason !== undefined, {
      message: 'require_signing_reason needs a signing_reason',
      path: ['require_signing_reason'],
    })
    .refine((body) => body.container_type !== 'pdf' || body.files.length === 1, {
      message: 'a pdf container takes exactly one file',
      path: ['files'],
    })
    .refine((body) => body.container_type !== 'asice' || !body.files.some((file) => reservedInAsice(file.fileName)), {
      message: 'mimetype and META-INF are reserved names in an ASiC-E container',
      path: ['files'],
    })
    // Case-insensitively: `A.pdf` and `a.pdf` are one file once extracted on Windows or macOS.
    .refine((body) => new Set(body.files.map((file) => file.fileName.toLowerCase())).size === body.files.length, {
      message: 'file names must be unique (ignoring case)',
      path: ['files'],
    });
}

const base64ContentSchema = z.string().min(1).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

/** The client-authenticated prepare with its documents checked by `fileContent` (see prepareFieldsWith). */
export function prepareFilesSchemaWith<Content extends z.ZodType>(fileContent: Content) {
  return withPrepareChecks(clientSecretSchema.extend(prepareFieldsWith(fileContent).shape));
}

export const prepareFilesRequestSchema = prepareFilesSchemaWith(base64ContentSchema);
export type PrepareFilesRequest = z.infer<typeof prepareFilesRequestSchema>;

/** A web page's prepare for a server that cannot reach the station (docs/integrating.md): the fields and the grant. */
export const grantedPrepareRequestSchema = withPrepareChecks(prepareFieldsWith(base64ContentSchema).extend({ grant: z.string().min(1).max(16_384) }));
export type GrantedPrepareRequest = z.infer<typeof grantedPrepareRequestSchema>;

export const prepareFilesResponseSchema = z.object({ status: z.literal('OK'), doc_id: z.string(), expires_at: z.string() });

export const sessionRequestSchema = z.object({ client_id: clientIdSchema, doc_id: docIdSchema });

export const reasonAcceptRequestSchema = sessionRequestSchema.extend({ reason_text: z.string().max(1000) });

export const downloadRequestSchema = sessionRequestSchema.extend({ secret: z.string().min(1) });

/**
 * The status object (docs/service-interface.md#session-status). Values the interface leaves open, chosen here:
 * signing_session_status is OPEN, SIGNED or EXPIRED; signing_session_user_status is null, REASON_ACCEPTED,
 * SIGNING_STARTED or SIGNED; accepted_at is ISO 8601 UTC with milliseconds.
 */
export const signingSessionStatusSchema = z.object({
  signing_session_status: z.enum(['OPEN', 'SIGNED', 'EXPIRED']),
  signing_session_user_status: z.enum(['REASON_ACCEPTED', 'SIGNING_STARTED', 'SIGNED']).nullable(),
  signing_reason: z
    .object({
      reason_text: z.string(),
      accepted_at: z.string().nullable(),
      accepted_in_current_session: z.boolean(),
    })
    .optional(),
  require_signing_reason: z.boolean(),
});
export type SigningSessionStatus = z.infer<typeof signingSessionStatusSchema>;
