import * as z from 'zod';

/** ETSI baseline levels, by what the signature embeds: a timestamp (T), validation data (LT), an archive timestamp (LTA). */
export const baselineLevelSchema = z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']);

export const timestampCheckSchema = z.object({
  time: z.string(),
  authority: z.string(),
  valid: z.boolean(),
  trusted: z.boolean(),
  problems: z.array(z.string()),
});
export type TimestampCheck = z.infer<typeof timestampCheckSchema>;

export const chainCheckSchema = z.object({
  trusted: z.boolean(),
  /** Subject of the trust anchor the chain ends in, when it does. */
  anchor: z.string().nullable(),
  /** Subjects from the signer up. */
  certificates: z.array(z.string()),
  problems: z.array(z.string()),
});
export type ChainCheck = z.infer<typeof chainCheckSchema>;

/** One signature of a document, as `signing-station verify --json` and the window's verify screen show it. */
export const signatureVerificationSchema = z.object({
  kind: z.enum(['PAdES', 'XAdES', 'CAdES', 'RFC 3161 timestamp']),
  signer: z.string().nullable(),
  issuer: z.string().nullable(),
  serialNumber: z.string().nullable(),
  /** The time the signer claims (PDF /M, signing-time, XAdES SigningTime); the timestamp gives the trusted one. */
  claimedTime: z.string().nullable(),
  reason: z.string().nullable(),
  level: baselineLevelSchema.nullable(),
  /** The signed bytes are those the signer signed, and the signature value matches the certificate's key. */
  intact: z.boolean(),
  /** PDF: the signature covers the whole file (no changes after it); null where that does not apply. */
  coversWholeDocument: z.boolean().nullable(),
  chain: chainCheckSchema,
  revocation: z.enum(['good', 'revoked', 'not embedded']),
  timestamp: timestampCheckSchema.nullable(),
  valid: z.boolean(),
  problems: z.array(z.string()),
});
export type SignatureVerification = z.infer<typeof signatureVerificationSchema>;

export const documentVerificationSchema = z.object({
  file: z.string(),
  format: z.enum(['pdf', 'asice', 'asics', 'cms', 'timestamp']),
  signatures: z.array(signatureVerificationSchema),
  /** True only when there is at least one signature and every one is valid. */
  valid: z.boolean(),
});
export type DocumentVerification = z.infer<typeof documentVerificationSchema>;
