import * as z from 'zod';
import { signatureBaselineSchema } from './signature-baseline.js';
import { visibleSignaturePlacementSchema } from './visible-signature-placement.js';
import { stampLanguageSchema } from './stamp-language.js';
import { containerTypeSchema, docIdSchema, plainFileNameSchema } from './signing-session-api.js';

const base64 = z.string().min(1).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64');

/** A file the user picked or dropped in the station window. */
export const deskFileSchema = z.object({ fileName: plainFileNameSchema, mimeType: z.string().min(1).max(255), fileContent: base64 });

/** POST /admin/api/desk/sessions: the window's files become a signing session of the station's own client. */
/** The certificate the user chose (DER, base64): a level it cannot reach is refused at prepare, before any consent. */
const signingCertificateSchema = base64.max(64 * 1024);

export const deskPrepareRequestSchema = z
  .object({
    files: z.array(deskFileSchema).min(1).max(100),
    containerType: containerTypeSchema,
    signingReason: z.string().min(1).max(1000).optional(),
    requireSigningReason: z.boolean().optional(),
    baseline: signatureBaselineSchema.optional(),
    visibleSignature: visibleSignaturePlacementSchema.optional(),
    /** PDF: the visible signature's labels in the document's signing language (placed box or reason-only stamp). */
    stampLanguage: stampLanguageSchema.optional(),
    /** A new ASiC-E container's name as the user typed it (without `.asice`): the saved file is called so. */
    containerName: plainFileNameSchema.optional(),
    signingCertificate: signingCertificateSchema.optional(),
  })
  .refine((body) => body.containerType !== 'pdf' || body.files.length === 1, { message: 'a pdf container takes exactly one file', path: ['files'] })
  .refine((body) => body.containerType === 'pdf' || body.visibleSignature === undefined, { message: 'a visible signature is placed on a pdf only', path: ['visibleSignature'] })
  .refine((body) => body.containerType === 'pdf' || body.stampLanguage === undefined, { message: 'a visible signature is drawn on a pdf only', path: ['stampLanguage'] })
  .refine((body) => body.containerType === 'asice' || body.containerName === undefined, { message: 'only a container is named', path: ['containerName'] });
export type DeskPrepareRequest = z.input<typeof deskPrepareRequestSchema>;

/**
 * POST /admin/api/desk/batches: several PDFs, each to become its own signed PDF, under one consent that lists them
 * all (the same level and reason for each; no placed box, as each document has its own pages).
 */
export const deskBatchRequestSchema = z.object({
  files: z
    .array(deskFileSchema.refine((file) => /\.pdf$/i.test(file.fileName), { message: 'each file of a batch is a pdf', path: ['fileName'] }))
    .min(2)
    .max(100),
  signingReason: z.string().min(1).max(1000).optional(),
  requireSigningReason: z.boolean().optional(),
  baseline: signatureBaselineSchema.optional(),
  signingCertificate: signingCertificateSchema.optional(),
  /** The labels of each document's reason stamp, in the documents' signing language. */
  stampLanguage: stampLanguageSchema.optional(),
});
export type DeskBatchRequest = z.input<typeof deskBatchRequestSchema>;

/** The batch's signing sessions, one per file, in the order given. */
export const deskBatchResponseSchema = z.object({ clientId: z.string(), documents: z.array(z.object({ fileName: z.string(), docId: z.string() })) });
export type DeskBatchResponse = z.infer<typeof deskBatchResponseSchema>;

export const deskPrepareResponseSchema = z.object({ clientId: z.string(), docId: z.string(), expiresAt: z.string() });
export type DeskPrepareResponse = z.infer<typeof deskPrepareResponseSchema>;


/** Where the window saved a result: never over an original, a name with its proper extension. */
export const deskSavedFileSchema = z.object({ path: z.string(), fileName: z.string(), directory: z.string(), sha256: z.string() });
export type DeskSavedFile = z.infer<typeof deskSavedFileSchema>;

/**
 * POST /admin/api/desk/timestamp: one file, timestamped by the station's TSA; saved as the RFC 3161 token alone
 * (`tsr`, the default) or as an ASiC-S container holding the file and its token (`asics`).
 */
export const deskTimestampRequestSchema = deskFileSchema.extend({ output: z.enum(['tsr', 'asics']).optional() });
export type DeskTimestampRequest = z.infer<typeof deskTimestampRequestSchema>;

/** GET /admin/api/desk/saved?name=: a file the window saved, by its name in the output folder (no folder part). */
export const deskSavedQuerySchema = z.object({ name: plainFileNameSchema });

export const deskSessionParamsSchema = z.object({ docId: docIdSchema });

/** POST /admin/api/desk/identify: try an identification method from the window, as an integration would. */
export const deskIdentifyRequestSchema = z.object({
  method: z.string().min(1).max(100),
  idcode: z.string().min(1).max(64).optional(),
  phone: z.string().min(1).max(32).optional(),
  country: z.string().length(2).optional(),
});
export type DeskIdentifyRequest = z.infer<typeof deskIdentifyRequestSchema>;

/**
 * The answer to POST /admin/api/desk/identify: the identification started, with what the person must compare (the
 * verification code their phone shows, for Smart-ID and Mobile-ID) and when it lapses; then
 * POST /admin/api/desk/identify/complete waits for the person.
 */
export const deskIdentifyStartedSchema = z.object({ token: z.string(), challenge: z.string().optional(), expiresAt: z.string() });
export type DeskIdentifyStarted = z.infer<typeof deskIdentifyStartedSchema>;

export const deskIdentifyCompleteRequestSchema = z.object({ method: z.string().min(1).max(100), token: z.string().min(1).max(200) });
export type DeskIdentifyCompleteRequest = z.infer<typeof deskIdentifyCompleteRequestSchema>;

/** GET /admin/api/desk/identify: the methods the station offers now, with the fields each needs. */
export const deskIdentifyMethodSchema = z.object({ code: z.string(), label: z.string(), inputs: z.array(z.enum(['idcode', 'phone'])) });
export type DeskIdentifyMethod = z.infer<typeof deskIdentifyMethodSchema>;

const placementArea = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

/**
 * POST /admin/api/desk/placement: where a box of the given size goes on a page of a PDF the window shows, by the same
 * free-space search the CLI uses for a visible signature without a rectangle.
 */
export const deskPlacementRequestSchema = deskFileSchema.extend({
  page: z.number().int().min(1).max(100_000),
  width: z.number().finite().positive().max(14_400),
  height: z.number().finite().positive().max(14_400),
});
export type DeskPlacementRequest = z.infer<typeof deskPlacementRequestSchema>;

/**
 * The proposed box and what the page already shows (its painted content and earlier signatures), all in points from
 * the bottom-left corner of the page as displayed; `content` is absent when the page's content could not be read.
 */
export const deskPlacementResponseSchema = z.object({ proposed: placementArea, content: z.array(placementArea).optional() });
export type DeskPlacementResponse = z.infer<typeof deskPlacementResponseSchema>;
