import * as z from 'zod';

/**
 * How a private key is applied to a hash. RSA PKCS#1 v1.5 wraps the hash in a DigestInfo; PSS uses MGF1 with the
 * same hash and a salt as long as the hash; ECDSA returns the raw r||s (IEEE P1363) form.
 */
export const signatureSchemeSchema = z.enum(['RSASSA-PKCS1-v1_5', 'RSA-PSS', 'ECDSA']);
export type SignatureScheme = z.infer<typeof signatureSchemeSchema>;

/** A certificate on a card, token or store, as listed to the UI, the CLI and web pages. */
export const tokenCertificateSchema = z.object({
  /** Stable within the token: hex CKA_ID for PKCS#11, key reference for direct-APDU cards. */
  id: z.string(),
  /** DER, base64. */
  certificate: z.string(),
  usage: z.enum(['signing', 'authentication', 'other']),
  subject: z.string(),
  issuer: z.string(),
  serialNumber: z.string(),
  notBefore: z.string(),
  notAfter: z.string(),
  keyAlgorithm: z.enum(['RSA', 'EC']),
  /** Named curve for EC keys (P-256, P-384), key size in bits for RSA. */
  keyParameters: z.string(),
  /**
   * The schemes the token lets this key sign with, when it allows fewer than its type has (a PKCS#11 key whose
   * CKA_ALLOWED_MECHANISMS holds only CKM_RSA_PKCS_PSS, a module without CKM_RSA_PKCS); absent, no restriction.
   */
  signatureSchemes: z.array(signatureSchemeSchema).optional(),
  valid: z.boolean(),
  /**
   * The key's PIN is asked for every signature and never stays verified between them (an ID card's keys: the card
   * resets its signing PIN after each signature, and the station asks each key's PIN for every use), so the token
   * is never shown as unlocked and the unlock time does not apply to it.
   */
  pinEverySignature: z.boolean().optional(),
});
export type TokenCertificate = z.infer<typeof tokenCertificateSchema>;

export const pinStatusSchema = z.object({
  /** Retries left when the token tells; PKCS#11 only gives the low/final/locked flags. */
  retriesLeft: z.number().int().nonnegative().optional(),
  countLow: z.boolean(),
  finalTry: z.boolean(),
  locked: z.boolean(),
  /** Protected authentication path: the PIN is typed on the reader's pinpad, never in the station. */
  pinpad: z.boolean(),
});
export type PinStatus = z.infer<typeof pinStatusSchema>;

export const tokenDescriptionSchema = z.object({
  id: z.string(),
  kind: z.enum(['pkcs11', 'pcsc', 'store']),
  label: z.string(),
  /** PC/SC reader name or PKCS#11 slot description. */
  reader: z.string().optional(),
  /** PKCS#11 module path or card driver name. */
  driver: z.string(),
  manufacturer: z.string().optional(),
  serialNumber: z.string().optional(),
  atr: z.string().optional(),
  pin: pinStatusSchema,
  /** While the token stays logged in after a signature (no PIN asked for the next one): until when, ISO time. */
  unlockedUntil: z.string().optional(),
  certificates: z.array(tokenCertificateSchema),
});
export type TokenDescription = z.infer<typeof tokenDescriptionSchema>;

export const readerDescriptionSchema = z.object({
  name: z.string(),
  cardPresent: z.boolean(),
  atr: z.string().optional(),
  /** Driver chosen from the ATR table, or why none was. */
  driver: z.string().optional(),
  problem: z.string().optional(),
});
export type ReaderDescription = z.infer<typeof readerDescriptionSchema>;
