import * as z from 'zod';
import { clientIdSchema } from './client-registration.js';

const docId = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not a document id');

/**
 * POST /api/signatures/start-signing for methods whose signer is reached elsewhere (Smart-ID, Mobile-ID, OTP), as the
 * published browser client sends it (docs/service-interface.md#signing-with-a-remote-signer); unknown members are
 * ignored.
 */
export const remoteSigningStartSchema = z.object({
  client_id: clientIdSchema,
  doc_id: docId,
  sign_type: z.string(),
  idcode: z.string().max(64).optional(),
  phone: z.string().regex(/^\+[0-9]{6,15}$/, 'must be an international number: + and digits').optional(),
  email: z.string().email().max(254).optional(),
  /** Cloud-certificate providers: the account the confirmation code goes to. */
  username: z.string().max(128).optional(),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code').optional(),
  lang: z.string().max(8).optional(),
  /** Smart-ID: false answers at once and gives the challenge with the polls (the recommended integration). */
  wait_for_challenge_code: z.boolean().optional(),
});
export type RemoteSigningStart = z.infer<typeof remoteSigningStartSchema>;

/**
 * Who is expected to sign a prepared document (prepare's `signer`, a station extension): start-signing for a
 * remote signer takes the addresses it lacks from here, as the published client sends none for some methods.
 */
export const expectedSignerSchema = remoteSigningStartSchema.pick({ idcode: true, phone: true, email: true });
export type ExpectedSigner = z.infer<typeof expectedSignerSchema>;

/** POST /api/signatures/<path>/complete for those methods: polled with the start's token, or OTP codes. */
export const remoteSigningCompleteSchema = z.object({
  client_id: clientIdSchema,
  doc_id: docId,
  token: z.string().min(1).max(128).optional(),
  /** Seconds the station may hold the poll open; capped. */
  timeout: z.coerce.number().min(0).max(30).optional(),
  lang: z.string().max(8).optional(),
  email_token: z.string().max(32).optional(),
  sms_token: z.string().max(32).optional(),
  /** Handwritten signing: the drawn signature, a PNG or JPEG as base64 or as a data: URL (at most 512 KB). */
  handwritten_signature_data: z.string().max(700_000).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64').optional(),
  handwritten_signature_data_url: z.string().max(700_000).regex(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/, 'must be a data: URL of a PNG or JPEG image').optional(),
  /** Cloud-certificate providers: the code from confirmationCodeRequest (Chave Móvel: RSA-encrypted, base64). */
  confirmation_code: z.string().max(1024).optional(),
});
export type RemoteSigningComplete = z.infer<typeof remoteSigningCompleteSchema>;
