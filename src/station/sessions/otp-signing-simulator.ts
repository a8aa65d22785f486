import { randomInt, timingSafeEqual } from 'node:crypto';
import type { StationMode } from '../../core/schemas/station-mode.js';
import { remoteSigningCompleteSchema, remoteSigningStartSchema } from '../../core/schemas/remote-signing-api.js';
import { StationError } from '../../core/errors/station-error.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { parseZod } from '../validation/parse-zod.js';
import { completedAnswer } from './hash-signing-method.js';
import type { HashSigningService } from './hash-signing-service.js';
import type { SandboxTestCa } from './sandbox-test-ca.js';
import type { SandboxOutbox } from './sandbox-outbox.js';
import { assertSandboxSigning } from './sandbox-signing-mode.js';
import type { SigningMethod } from './signing-method.js';

const METHOD = 'otp-email-non-qualified';
const ATTEMPTS = 3;
const LIFETIME_MS = 10 * 60_000;

interface SentCode {
  code: string;
  to: string;
  channel: 'email' | 'sms';
  country: string;
  attemptsLeft: number;
  expiresAt: number;
}

export interface OtpSigningDeps {
  service: HashSigningService;
  ca: SandboxTestCa;
  outbox: SandboxOutbox;
  mode: () => StationMode;
}

/**
 * One-time-password signing (`otp-email-non-qualified`, completed at `non-qualified` as the published client does):
 * start-signing sends a 6-digit code to the e-mail address or phone (the sandbox outbox and log), complete checks
 * `email_token` / `sms_token` against it (3 tries, 10 minutes) and signs as that address with the test CA.
 */
export function otpSigningSimulator(deps: OtpSigningDeps): SigningMethod {
  const sent = new Map<string, SentCode>();
  const key = (clientId: string, docId: string): string => `${clientId}\n${docId}`;
  return {
    signTypes: [METHOD],
    completePaths: ['non-qualified', METHOD],
    async start(body) {
      assertSandboxSigning(deps.mode, METHOD);
      const request = parseZod(remoteSigningStartSchema, body, 'Invalid start-signing request');
      const to = request.email ?? request.phone;
      if (!to) throw new InvalidInputError('A one-time password needs an e-mail address or a phone number.', { email: ['required without phone'] });
      const channel = request.email ? 'email' : 'sms';
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      sent.set(key(request.client_id, request.doc_id), { code, to, channel, country: (request.country ?? 'EE').toUpperCase(), attemptsLeft: ATTEMPTS, expiresAt: Date.now() + LIFETIME_MS });
      deps.outbox.deliver({ channel, to, text: `Your signing code is ${code} (document ${request.doc_id}).` });
      return { status: 'OK', sent_to: channel };
    },
    async complete(_path, body) {
      assertSandboxSigning(deps.mode, METHOD);
      const request = parseZod(remoteSigningCompleteSchema, body, 'Invalid complete request');
      const entry = sent.get(key(request.client_id, request.doc_id));
      if (!entry || entry.expiresAt < Date.now()) throw new StationError('ERR_SIGNING_OTP_NOT_SENT', 'No one-time password was sent for this document; call start-signing first.', { status: 409 });
      const typed = entry.channel === 'email' ? request.email_token : request.sms_token;
      if (!matches(typed, entry.code)) {
        if (--entry.attemptsLeft <= 0) sent.delete(key(request.client_id, request.doc_id));
        throw new InvalidInputError(`The one-time password is wrong (${entry.attemptsLeft} tries left).`, { [entry.channel === 'email' ? 'email_token' : 'sms_token']: ['does not match'] });
      }
      sent.delete(key(request.client_id, request.doc_id));
      const signer = await deps.ca.issue({ firstname: '', lastname: entry.to, idcode: entry.to, country: entry.country });
      const started = await deps.service.startElsewhere(request, signer.certificate, METHOD);
      const signature = await signer.sign(Buffer.from(started.hexDigest, 'hex'), started.digestAlgorithm);
      const completed = await deps.service.complete(METHOD, { client_id: request.client_id, doc_id: request.doc_id, token: started.token, signature_value: Buffer.from(signature).toString('base64') });
      return completedAnswer(completed);
    },
  };
}

function matches(typed: string | undefined, code: string): boolean {
  return typed !== undefined && typed.length === code.length && timingSafeEqual(Buffer.from(typed), Buffer.from(code));
}
