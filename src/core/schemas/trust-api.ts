import * as z from 'zod';

/** A SHA-256 fingerprint as the station shows it: 64 hex digits, lower case (colons and case are accepted). */
export const fingerprintSchema = z
  .string()
  .transform((value) => value.replace(/[:\s]/g, '').toLowerCase())
  .pipe(z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 fingerprint is 64 hex digits'));

/**
 * Where following a list of lists' pivots (its earlier copies that announce each change of signing certificates)
 * stopped: the step, the pivot (1 the oldest followed, of `count`) and its address; for the window to say it in the
 * user's language.
 */
export const pivotStepSchema = z.object({
  step: z.enum(['too-many', 'unavailable', 'unreadable', 'signature', 'no-signers', 'lotl-signature']),
  position: z.number().int(),
  count: z.number().int(),
  url: z.string().nullable(),
});
export type PivotStep = z.infer<typeof pivotStepSchema>;

/** One trusted list as the station keeps it: where it came from, its sequence number and dates, and any refusal. */
export const cachedListSchema = z.object({
  /** The list of lists it belongs to ("eu" for the EU's), or for a list of lists itself, its own id. */
  lotl: z.string(),
  kind: z.enum(['lotl', 'national']),
  territory: z.string(),
  url: z.string().nullable(),
  /** The cached XML's file name in the data directory's trust/lists folder. */
  file: z.string(),
  sequenceNumber: z.number().int(),
  issuedAt: z.string(),
  nextUpdate: z.string().nullable(),
  fetchedAt: z.string(),
  etag: z.string().nullable(),
  lastModified: z.string().nullable(),
  services: z.number().int(),
  /** The last newer copy refused (broken signature, older sequence number, unreachable), while this one is kept. */
  refused: z.object({ at: z.string(), reason: z.string(), pivot: pivotStepSchema.optional() }).nullable(),
});
export type CachedList = z.infer<typeof cachedListSchema>;

/** A certificate the user trusts, for signatures and timestamps. */
export const addedCertificateSchema = z.object({ fingerprint: z.string(), subject: z.string(), notAfter: z.string(), addedAt: z.string() });

/** GET /admin/api/trust and `trust list --json`: every source of trust the station uses. */
export const trustSourcesSchema = z.object({
  euLists: z.object({ enabled: z.boolean(), url: z.string() }),
  lists: z.array(cachedListSchema.omit({ file: true, etag: true, lastModified: true })),
  added: z.array(addedCertificateSchema),
  /** This station's own TSA, trusted for timestamps on this machine only. */
  stationTsa: z.object({ subject: z.string(), fingerprint: z.string() }).nullable(),
});
export type TrustSources = z.infer<typeof trustSourcesSchema>;

/** POST /admin/api/trust/certificates: a certificate file's content (PEM text or base64 DER). */
export const trustAddRequestSchema = z.object({
  certificate: z.string().min(1).max(64 * 1024),
  /** When given (trust this issuer), the certificate must have this SHA-256 fingerprint, the one the person saw. */
  fingerprint: fingerprintSchema.optional(),
});
export type TrustAddRequest = z.infer<typeof trustAddRequestSchema>;

/** PUT /admin/api/trust/eu: EU trusted lists on or off. */
export const trustEuRequestSchema = z.object({ enabled: z.boolean() });

/** POST /admin/api/trust/refresh and `trust refresh`: what happened to each list. */
export const trustRefreshResultSchema = z.object({
  lists: z.array(z.object({ territory: z.string(), url: z.string().nullable(), outcome: z.enum(['updated', 'unchanged', 'refused']), message: z.string(), pivot: pivotStepSchema.optional() })),
});
export type TrustRefreshResult = z.infer<typeof trustRefreshResultSchema>;

/** POST /admin/api/trust/lists: trusted lists dropped in Settings (offline import), checked as `trust import` does. */
export const trustImportRequestSchema = z.object({
  lists: z
    .array(z.object({ name: z.string().min(1).max(255), xml: z.string().min(1).max(32 * 1024 * 1024) }))
    .min(1)
    .max(64),
});
export type TrustImportRequest = z.infer<typeof trustImportRequestSchema>;
