import { randomBytes } from 'node:crypto';
import type { StationMode } from '../../core/schemas/station-mode.js';
import { remoteSigningCompleteSchema, remoteSigningStartSchema } from '../../core/schemas/remote-signing-api.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { REDIRECT_PROVIDER_IDENTITY } from '../identity/sandbox-identities.js';
import { parseZod } from '../validation/parse-zod.js';
import { completedAnswer } from './hash-signing-method.js';
import type { HashSigningService } from './hash-signing-service.js';
import type { OneTimeCodes } from './one-time-codes.js';
import type { SandboxTestCa } from './sandbox-test-ca.js';
import { assertSandboxSigning } from './sandbox-signing-mode.js';
import { signAtOnce } from './sign-at-once.js';
import type { SigningMethod } from './signing-method.js';

/** Cloud certificates with user, password and PIN whose provider confirms with a code (the published client's `confirm` flow). */
export const CONFIRMATION_CODE_METHODS = ['uanataca-qes-signature'] as const;

/**
 * A cloud certificate confirmed by a code, simulated: start sends a 6-digit code for the account (outbox and log)
 * and answers a token; the browser client asks the integrator's confirmationCodeRequest for it and completes with
 * `confirmation_code`; the right code signs as the sandbox person with the test CA.
 */
export function confirmationCodeSigningSimulator(method: string, deps: { service: HashSigningService; ca: SandboxTestCa; codes: OneTimeCodes; mode: () => StationMode }): SigningMethod {
  return {
    signTypes: [method],
    completePaths: [method],
    async start(body) {
      assertSandboxSigning(deps.mode, method);
      const request = parseZod(remoteSigningStartSchema, body, 'Invalid start-signing request');
      if (!request.username) throw new InvalidInputError('The cloud certificate account (username) is required.', { username: ['required'] });
      const token = randomBytes(32).toString('base64url');
      deps.codes.send(`${method}\n${request.client_id}\n${request.doc_id}\n${token}`, { to: request.username, channel: 'sms', country: 'EE' }, `${method} confirmation`);
      return { status: 'OK', token };
    },
    async complete(_path, body) {
      assertSandboxSigning(deps.mode, method);
      const request = parseZod(remoteSigningCompleteSchema, body, 'Invalid complete request');
      deps.codes.take(`${method}\n${request.client_id}\n${request.doc_id}\n${request.token ?? ''}`, request.confirmation_code, 'confirmation_code');
      return completedAnswer(await signAtOnce(deps, request, REDIRECT_PROVIDER_IDENTITY.person, method));
    },
  };
}
