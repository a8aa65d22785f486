import { randomBytes } from 'node:crypto';
import type { StationMode } from '../../core/schemas/station-mode.js';
import { remoteSigningCompleteSchema } from '../../core/schemas/remote-signing-api.js';
import { REDIRECT_PROVIDER_IDENTITY } from '../identity/sandbox-identities.js';
import { parseZod } from '../validation/parse-zod.js';
import { completedAnswer } from './hash-signing-method.js';
import type { HashSigningService } from './hash-signing-service.js';
import type { OneTimeCodes, SentCode } from './one-time-codes.js';
import type { SandboxTestCa } from './sandbox-test-ca.js';
import { assertSandboxSigning } from './sandbox-signing-mode.js';
import { signAtOnce } from './sign-at-once.js';
import type { SigningMethod } from './signing-method.js';

/** How one confirmation-code provider reads what its browser client sends. */
export interface ConfirmationProvider {
  method: string;
  /** From start's body: the session and where the code goes (throws InvalidInputError on a missing account). */
  recipient(body: unknown): Promise<{ request: { client_id: string; doc_id: string }; sent: SentCode }>;
  /** The code as the user typed it, from complete's `confirmation_code` (decrypted where the client encrypts it). */
  typedCode(sent: string | undefined): Promise<string | undefined>;
}

/**
 * A cloud certificate confirmed by a code, simulated: start sends a 6-digit code to the account (outbox and log)
 * and answers a token; the browser client asks the integrator's confirmationCodeRequest for it and completes with
 * `confirmation_code`; the right code signs as the sandbox person with the test CA.
 */
export function confirmationCodeSigningSimulator(
  provider: ConfirmationProvider,
  deps: { service: HashSigningService; ca: SandboxTestCa; codes: OneTimeCodes; mode: () => StationMode },
): SigningMethod {
  const { method } = provider;
  const key = (clientId: string, docId: string, token: string): string => `${method}\n${clientId}\n${docId}\n${token}`;
  return {
    signTypes: [method],
    completePaths: [method],
    async start(body) {
      assertSandboxSigning(deps.mode, method);
      const { request, sent } = await provider.recipient(body);
      const token = randomBytes(32).toString('base64url');
      deps.codes.send(key(request.client_id, request.doc_id, token), sent, `${method} confirmation`);
      return { status: 'OK', token };
    },
    async complete(_path, body) {
      assertSandboxSigning(deps.mode, method);
      const request = parseZod(remoteSigningCompleteSchema, body, 'Invalid complete request');
      deps.codes.take(key(request.client_id, request.doc_id, request.token ?? ''), await provider.typedCode(request.confirmation_code), 'confirmation_code');
      return completedAnswer(await signAtOnce(deps, request, REDIRECT_PROVIDER_IDENTITY.person, method));
    },
  };
}
