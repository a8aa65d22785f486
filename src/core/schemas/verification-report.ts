import * as z from 'zod';

/** ETSI baseline levels, by what the signature embeds: a timestamp (T), validation data (LT), an archive timestamp (LTA). */
export const baselineLevelSchema = z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']);

/** ETSI EN 319 102-1 main indications: the answer to "does this signature hold?". */
export const indicationSchema = z.enum(['TOTAL-PASSED', 'INDETERMINATE', 'TOTAL-FAILED']);
export type Indication = z.infer<typeof indicationSchema>;

/** ETSI EN 319 102-1 sub-indications: why a signature failed or could not be judged (the ones the station gives). */
export const subIndicationSchema = z.enum([
  'FORMAT_FAILURE',
  'HASH_FAILURE',
  'SIG_CRYPTO_FAILURE',
  'REVOKED',
  'NO_SIGNING_CERTIFICATE_FOUND',
  'NO_CERTIFICATE_CHAIN_FOUND',
  'OUT_OF_BOUNDS_NO_POE',
  'CRYPTO_CONSTRAINTS_FAILURE_NO_POE',
  'SIGNED_DATA_NOT_FOUND',
  'NO_POE',
  'TRY_LATER',
]);
export type SubIndication = z.infer<typeof subIndicationSchema>;

/**
 * The verdict on one signature or timestamp: the indication, the sub-indication that decides it (null when
 * passed), the time it was judged at and where that time comes from, the deciding reason in words and, when a
 * person can change the outcome, what to do.
 */
export const verdictSchema = z.object({
  indication: indicationSchema,
  subIndication: subIndicationSchema.nullable(),
  /** ISO time: the best proof of existence (a passed signature timestamp), else the validation time. */
  judgedAt: z.string(),
  judgedAtFrom: z.enum(['timestamp', 'validation time']),
  reason: z.string(),
  advice: z.string().nullable(),
});
export type Verdict = z.infer<typeof verdictSchema>;

export const timestampCheckSchema = z.object({
  time: z.string(),
  authority: z.string(),
  valid: z.boolean(),
  trusted: z.boolean(),
  problems: z.array(z.string()),
  verdict: verdictSchema,
});
export type TimestampCheck = z.infer<typeof timestampCheckSchema>;

export const chainCheckSchema = z.object({
  trusted: z.boolean(),
  /** Subject of the trust anchor the chain ends in, when it does. */
  anchor: z.string().nullable(),
  /** Where that anchor comes from (a trust file, an NSS database, this station's TSA). */
  anchorSource: z.string().nullable(),
  /** Subjects from the signer up. */
  certificates: z.array(z.string()),
  problems: z.array(z.string()),
  /**
   * When the chain ends in no trusted issuer: the topmost certificate it reached (base64 DER, subject, SHA-256),
   * what "trust this issuer" adds once the person has seen its fingerprint.
   */
  untrustedTop: z.object({ subject: z.string(), sha256: z.string(), certificate: z.string() }).optional(),
});
export type ChainCheck = z.infer<typeof chainCheckSchema>;

/** The certificate's qualified status by the trusted list's words at one time. */
export const qualificationAtTimeSchema = z.object({
  time: z.string(),
  level: z.enum(['QES', 'QESeal', 'AdES-QC', 'AdES']),
  qualifiedCertificate: z.boolean(),
  qscd: z.boolean().nullable(),
  trustedList: z.string().nullable(),
  reason: z.string(),
});
export type QualificationAtTime = z.infer<typeof qualificationAtTimeSchema>;

/**
 * Qualified status (eIDAS) from the signer certificate's QC statements and the qualifiers the trusted list gives its
 * issuer at the signing time: QES / QESeal (qualified certificate, key in a qualified device), AdES-QC (qualified
 * certificate only), AdES (neither, or no trusted list names the issuer as a qualified CA).
 */
export const qualificationSchema = z.object({
  level: z.enum(['QES', 'QESeal', 'AdES-QC', 'AdES']),
  qualifiedCertificate: z.boolean(),
  /** The key is in a qualified signature or seal creation device; null when nothing says. */
  qscd: z.boolean().nullable(),
  /** What the qualified certificate is for; null when not qualified. */
  type: z.enum(['esig', 'eseal', 'web']).nullable(),
  /** QC statements the certificate carries (QcCompliance, QcSSCD, QcType). */
  qcStatements: z.array(z.string()),
  /** The trusted list's qualifiers that apply to it (QCWithSSCD, QCStatement, QCForESig, ...). */
  qualifiers: z.array(z.string()),
  /** The trusted list that decided (its territory and service), or null. */
  trustedList: z.string().nullable(),
  reason: z.string(),
  /**
   * ETSI TS 119 615 judges the certificate at two times: when it was issued (its notBefore) and when the signature
   * was made (the time it is judged at); the fields above are the result of both. Absent in reports made before.
   */
  atIssuance: qualificationAtTimeSchema.optional(),
  atSigning: qualificationAtTimeSchema.optional(),
});
export type Qualification = z.infer<typeof qualificationSchema>;

/**
 * A PDF signature's later revisions compared with the revision it signed: pages added or removed (1-based numbers
 * in the final document or in the signed one), pages whose content or attributes changed, pages whose annotations
 * (other than form fields) changed, form fields filled in, added or removed, signatures added, other objects written
 * again with other content, the certification
 * (DocMDP P) in force, and whether every change is one that certification and the signature's field lock allow.
 */
export const pdfChangesSchema = z.object({
  pagesAdded: z.array(z.number().int()),
  pagesRemoved: z.array(z.number().int()),
  pagesChanged: z.array(z.number().int()),
  annotationPages: z.array(z.number().int()),
  formFields: z.array(z.string()),
  signaturesAdded: z.number().int(),
  /** Other objects of the signed revision written again with other content (images, fonts, drawings pages use). */
  otherObjects: z.number().int(),
  /** 1 no changes, 2 form filling and signing, 3 also annotations; null when the document is not certified. */
  certification: z.number().int().min(1).max(3).nullable(),
  allowed: z.boolean(),
});
export type PdfChanges = z.infer<typeof pdfChangesSchema>;

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
  /**
   * The signer certificate's status at the time the signature is judged at: `not embedded` when nothing was needed
   * or to be had (the certificate names no place to ask, or its chain is not trusted), `unavailable` when it names
   * one but nothing could be had (offline, or the responder did not answer).
   */
  revocation: z.enum(['good', 'revoked', 'revoked after signing', 'not embedded', 'unavailable']),
  /** The evidence that decided `revocation` ("embedded OCSP response", "OCSP http://…", "CRL http://…"), null when none. */
  revocationSource: z.string().nullable(),
  timestamp: timestampCheckSchema.nullable(),
  verdict: verdictSchema,
  problems: z.array(z.string()),
  /** Qualified status; absent for timestamps and signatures that could not be read. */
  qualification: qualificationSchema.optional(),
  /** PDF: what later revisions changed after this signature; absent where that does not apply. */
  changesAfterSigning: pdfChangesSchema.optional(),
});
export type SignatureVerification = z.infer<typeof signatureVerificationSchema>;

/** One data file of a container: what it holds, and which of the report's signatures name it among what they sign. */
export const containerFileSchema = z.object({
  name: z.string(),
  size: z.number().int().nonnegative(),
  /** SHA-256 of its bytes, lowercase hex. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Positions (from 0) in the report's `signatures` of those that cover this file; empty when none does. */
  coveredBy: z.array(z.number().int().nonnegative()),
});
export type ContainerFile = z.infer<typeof containerFileSchema>;

export const documentVerificationSchema = z.object({
  file: z.string(),
  format: z.enum(['pdf', 'asice', 'asics', 'cms', 'timestamp']),
  signatures: z.array(signatureVerificationSchema),
  /** ISO time of the validation: what a signature is judged at when nothing proves an earlier existence. */
  validatedAt: z.string(),
  /** The worst indication of its signatures (failed over indeterminate over passed); null when it has none. */
  indication: indicationSchema.nullable(),
  /** A container's data files (ASiC-E, ASiC-S) with the signatures covering each; absent for other formats. */
  files: z.array(containerFileSchema).optional(),
});
export type DocumentVerification = z.infer<typeof documentVerificationSchema>;
