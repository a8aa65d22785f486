import * as z from 'zod';
import { clientIdSchema } from './client-registration.js';

/**
 * Signing methods whose key is with the user (ID card, USB token, certificate store): the browser or the iframe
 * helper signs a hash the station hands out. Method codes as the deployed browser client sends them.
 */
export const hashSigningMethods = [
  'id-signature',
  'lv-id-signature',
  'lt-id-signature',
  'fi-id-signature',
  'pt-id-signature',
  'be-id-signature',
  'hr-id-signature',
  'cz-id-signature',
  'lu-id-signature',
  'cert-store-qes-signature',
  'cert-store-advanced-signature',
  'cert-store-adv-unverified-sign',
  'certeurope-usb-token-signature',
  'certsign-usb-token-signature',
  'vn-bkav-token-signature',
  'vn-ca2-token-signature',
  'vn-fast-token-signature',
  'vn-fpt-token-signature',
  'vn-smart-token-signature',
  'vn-viettel-token-signature',
  'vn-vnpt-token-signature',
  'local-adv-unverified-signature',
  'es-autofirma-signature',
] as const;
export const hashSigningMethodSchema = z.enum(hashSigningMethods);

/** The method whose published client asks the iframe to sign `fileContent` (AutoFirma) rather than `hexDigests`. */
export const CONTENT_SIGNING_METHOD = 'es-autofirma-signature';
export type HashSigningMethod = z.infer<typeof hashSigningMethodSchema>;

/** Base64 or hex, as integrations send either for certificates and signature values. */
const binary = z
  .string()
  .min(2)
  .max(65_536)
  .refine((value) => /^[0-9a-fA-F]+$/.test(value) || /^[A-Za-z0-9+/_-]+={0,2}$/.test(value), 'must be base64 or hex');

const docId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not a document id');

/**
 * POST /api/signatures/start-signing for hash-based methods: certificate in, digest to sign out. The deployed
 * client sends the certificate twice, as `certificate` and `base64_certificate`, and no `lang`.
 */
export const startSigningRequestSchema = z
  .object({
    client_id: clientIdSchema,
    doc_id: docId,
    sign_type: hashSigningMethodSchema,
    certificate: binary.optional(),
    base64_certificate: binary.optional(),
    country: z.string().length(2).optional(),
    lang: z.string().length(2).optional(),
  })
  .refine((body) => body.certificate !== undefined || body.base64_certificate !== undefined, { message: 'certificate is required', path: ['certificate'] });
export type StartSigningRequest = z.infer<typeof startSigningRequestSchema>;

export const startSigningResponseSchema = z.object({
  status: z.literal('OK'),
  token: z.string(),
  hexDigest: z.string(),
  digest_algorithm: z.enum(['SHA-256', 'SHA-384', 'SHA-512']),
  /** ASiC-E: the SignedInfo digests the signer signs (one per signature). */
  signedInfoDigests: z.array(z.string()).optional(),
  /**
   * AutoFirma-type signing (the client passes `fileContent` to the iframe's getSignature instead of the digests):
   * the same digest, base64, as the content to sign.
   */
  fileContent: z.string().optional(),
});

/** POST /api/signatures/<method>/complete: the signature value in, the signed document stored. */
export const completeSigningRequestSchema = z.object({
  client_id: clientIdSchema,
  doc_id: docId,
  /** Absent when the deployed client completes an iframe signature: the document's pending signature is meant. */
  token: z.string().min(1).max(128).optional(),
  signature_value: binary.optional(),
  /** Sent by the deployed client for iframe methods; the station knows which token signed. */
  driver: z.string().max(128).optional(),
  /** The browser client's list form; its first entry is used when signature_value is absent. */
  signatures: z.array(binary).max(1).optional(),
  lang: z.string().length(2).optional(),
  timeout: z.number().optional(),
});
export type CompleteSigningRequest = z.infer<typeof completeSigningRequestSchema>;
