import * as z from 'zod';

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
  valid: z.boolean(),
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
