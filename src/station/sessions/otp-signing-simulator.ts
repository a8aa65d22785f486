import type { StationMode } from '../../core/schemas/station-mode.js';
import { remoteSigningCompleteSchema, remoteSigningStartSchema } from '../../core/schemas/remote-signing-api.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { parseZod } from '../validation/parse-zod.js';
import { completedAnswer } from './hash-signing-method.js';
import type { HashSigningService } from './hash-signing-service.js';
import type { SandboxTestCa } from './sandbox-test-ca.js';
import type { OneTimeCodes } from './one-time-codes.js';
import { assertSandboxSigning } from './sandbox-signing-mode.js';
import { signAtOnce } from './sign-at-once.js';
import type { SigningMethod } from './signing-method.js';

const METHOD = 'otp-email-non-qualified';
/** Handwritten signing: the same one-time password, plus the signature the user drew. */
const HANDWRITTEN = 'handwritten-simple-signature';
/** The PNG and JPEG magic numbers, base64. */
const IMAGE_STARTS = ['iVBORw0KGgo', '/9j/'];

export interface OtpSigningDeps {
  service: HashSigningService;
  ca: SandboxTestCa;
  codes: OneTimeCodes;
  mode: () => StationMode;
}

/**
 * One-time-password signing (`otp-email-non-qualified`, completed at `non-qualified` as the published client does):
 * start-signing sends a 6-digit code to the e-mail address or phone (the sandbox outbox and log), complete checks
 * `email_token` / `sms_token` against it and signs as that address with the test CA. Handwritten signing
 * (`handwritten-simple-signature`) is the same with the drawn signature required at complete; the sandbox checks it
 * is a PNG or JPEG and does not draw it into the document (the station's visible signature is text).
 */
export function otpSigningSimulator(deps: OtpSigningDeps): SigningMethod {
  const key = (clientId: string, docId: string): string => `otp\n${clientId}\n${docId}`;
  return {
    signTypes: [METHOD, HANDWRITTEN],
    completePaths: ['non-qualified', METHOD, HANDWRITTEN],
    async start(body) {
      assertSandboxSigning(deps.mode, METHOD);
      const request = parseZod(remoteSigningStartSchema, body, 'Invalid start-signing request');
      const to = request.email ?? request.phone;
      if (!to) throw new InvalidInputError('A one-time password needs an e-mail address or a phone number.', { email: ['required without phone'] });
      const channel = request.email ? 'email' : 'sms';
      deps.codes.send(key(request.client_id, request.doc_id), { to, channel, country: (request.country ?? 'EE').toUpperCase() }, `signing (document ${request.doc_id})`);
      return { status: 'OK', sent_to: channel };
    },
    async complete(path, body) {
      assertSandboxSigning(deps.mode, METHOD);
      const request = parseZod(remoteSigningCompleteSchema, body, 'Invalid complete request');
      const handwritten = path === HANDWRITTEN;
      const drawn = request.handwritten_signature_data ?? request.handwritten_signature_data_url?.split(',')[1];
      if (handwritten && !IMAGE_STARTS.some((start) => drawn?.startsWith(start))) {
        throw new InvalidInputError('Handwritten signing needs the drawn signature as a PNG or JPEG image.', { handwritten_signature_data: [drawn ? 'not a PNG or JPEG image' : 'required'] });
      }
      const typed = request.email_token ?? request.sms_token;
      const sent = deps.codes.take(key(request.client_id, request.doc_id), typed, request.email_token !== undefined ? 'email_token' : 'sms_token');
      const completed = await signAtOnce(deps, request, { firstname: '', lastname: sent.to, idcode: sent.to, country: sent.country }, handwritten ? HANDWRITTEN : METHOD);
      return completedAnswer(completed);
    },
  };
}
