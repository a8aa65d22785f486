import * as z from 'zod';
import { remoteSigningStartSchema } from '../../core/schemas/remote-signing-api.js';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { docIdSchema } from '../../core/schemas/signing-session-api.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { parseZod } from '../validation/parse-zod.js';
import type { ConfirmationProvider } from './confirmation-code-signing-simulator.js';
import type { SandboxRsaKey } from './sandbox-rsa-key.js';

/** Cloud certificate with user, password and PIN (Uanataca): the code goes to the account named `username`. */
export const uanatacaProvider: ConfirmationProvider = {
  method: 'uanataca-qes-signature',
  async recipient(body) {
    const request = parseZod(remoteSigningStartSchema, body, 'Invalid start-signing request');
    if (!request.username) throw new InvalidInputError('The cloud certificate account (username) is required.', { username: ['required'] });
    return { request, sent: { to: request.username, channel: 'sms', country: 'EE' } };
  },
  typedCode: async (sent) => sent,
};

const encrypted = z.string().min(1).max(1024).regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64');
const chaveMovelStartSchema = z.object({ client_id: clientIdSchema, doc_id: docIdSchema, sign_type: z.string(), lang: z.string().max(8).optional(), signing_pin: encrypted, phone: encrypted });
const portuguesePhone = /^\+351[0-9]{9}$/;
const signingPin = /^[0-9]{4,8}$/;

/**
 * Portuguese mobile key (Chave Móvel Digital): its client encrypts the phone, the signing PIN and later the
 * confirmation code with the provider's public key (`/api/chave-movel-public-key`); the code goes by SMS to the
 * phone. The sandbox takes any +351 number and any PIN of 4 to 8 digits.
 */
export function chaveMovelProvider(key: SandboxRsaKey): ConfirmationProvider {
  return {
    method: 'chave-movel-qes-signature',
    async recipient(body) {
      const request = parseZod(chaveMovelStartSchema, body, 'Invalid start-signing request');
      const phone = await key.decrypt(request.phone, 'phone');
      if (!portuguesePhone.test(phone)) throw new InvalidInputError('Chave Móvel needs a Portuguese mobile number (+351 and 9 digits).', { phone: ['not a +351 number'] });
      if (!signingPin.test(await key.decrypt(request.signing_pin, 'signing_pin'))) throw new InvalidInputError('The Chave Móvel signing PIN is 4 to 8 digits.', { signing_pin: ['not 4 to 8 digits'] });
      return { request, sent: { to: phone, channel: 'sms', country: 'PT' } };
    },
    typedCode: async (sent) => (sent === undefined ? undefined : key.decrypt(sent, 'confirmation_code')),
  };
}
