import * as z from 'zod';
import { signatureBaselineSchema } from './signature-baseline.js';

/** One file a signature covers, as the consent names it: the person agrees to exactly these files. */
export const consentDocumentSchema = z.object({
  name: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  /** Hex SHA-256 of the file's bytes. */
  sha256: z.string(),
});
export type ConsentDocument = z.infer<typeof consentDocumentSchema>;

/**
 * What the station's own consent prompt shows before any signature, authentication, or a web page reading the
 * user's certificate (`read-certificate`, no document).
 */
export const signatureConsentRequestSchema = z.object({
  purpose: z.enum(['sign', 'authenticate', 'read-certificate']),
  /** The real requesting origin (web page) or the client id / 'cli' when no browser is involved. */
  requester: z.string(),
  /**
   * Who `requester` is: the station's own window, a web page (requester is its origin), or a client with no
   * browser origin (requester names the client).
   */
  requesterKind: z.enum(['window', 'web-page', 'client']).optional(),
  clientId: z.string().optional(),
  /** Signing: every file the signature covers (each file of a new container), in the order they are signed. */
  documents: z.array(consentDocumentSchema).optional(),
  /** Signing: the baseline level the signature is made at. */
  level: signatureBaselineSchema.optional(),
  documentName: z.string().optional(),
  /** Hex SHA-256 of the document (or of the data to be signed when there is no document); none for a certificate read. */
  documentDigest: z.string().optional(),
  signerSubject: z.string(),
  signerIssuer: z.string(),
  signerSerialNumber: z.string(),
  reason: z.string().optional(),
});
export type SignatureConsentRequest = z.infer<typeof signatureConsentRequestSchema>;

export const pinRequestSchema = z.object({
  tokenLabel: z.string(),
  /** Which PIN: the card's authentication or signing PIN, or a store password. */
  pinLabel: z.string(),
  retriesLeft: z.number().int().optional(),
  finalTry: z.boolean(),
  /** The token flags its tries as running low (PKCS#11 gives this flag without a count): the prompt warns. */
  countLow: z.boolean().optional(),
  /** Set after a wrong PIN so the prompt can say so. */
  previousAttemptFailed: z.boolean(),
  requester: z.string(),
});
export type PinRequest = z.infer<typeof pinRequestSchema>;

export const certificateChoiceRequestSchema = z.object({
  requester: z.string(),
  purpose: z.enum(['sign', 'authenticate']),
  candidates: z.array(
    z.object({ tokenId: z.string(), certificateId: z.string(), subject: z.string(), issuer: z.string(), notAfter: z.string() }),
  ),
});
export type CertificateChoiceRequest = z.infer<typeof certificateChoiceRequestSchema>;
