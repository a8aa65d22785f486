import type { StationMode } from '../../core/schemas/station-mode.js';
import { remoteSigningCompleteSchema, remoteSigningStartSchema, type RemoteSigningStart } from '../../core/schemas/remote-signing-api.js';
import type { SandboxIdentity } from '../identity/sandbox-identities.js';
import type { SandboxTimings } from '../identity/sandbox-timings.js';
import { verificationCode } from '../identity/verification-code.js';
import { parseZod } from '../validation/parse-zod.js';
import { completedAnswer } from './hash-signing-method.js';
import type { HashSigningService } from './hash-signing-service.js';
import type { SandboxTestCa } from './sandbox-test-ca.js';
import { assertSandboxSigning } from './sandbox-signing-mode.js';
import { simulatedSigner } from './simulated-signer.js';
import type { SimulatedSignings } from './simulated-signings.js';
import type { SigningMethod } from './signing-method.js';

/** One app-based provider (Smart-ID, Mobile-ID): its codes and how it finds the account a request names. */
export interface AppSigningProvider {
  /** The method code recorded with the signature (download-signed-file's signing_method). */
  method: string;
  signTypes: readonly string[];
  completePaths: readonly string[];
  /** The sandbox account, or throws the provider's "not found" error. */
  account(request: RemoteSigningStart): SandboxIdentity;
  /** The provider has a continue step that gives the challenge (Icelandic app): it answers the token and challenge. */
  hasContinue?: true;
  /** The user opens the session in the app from a QR code, or a link on mobile (Ukrainian app, Spanish advanced). */
  showsQr?: true;
}

/** The sandbox app's link to a session, shown as the QR code: marked as the sandbox's, opened by no real app. */
const appLink = (method: string, token: string): string => `signing-station-sandbox://${method}/sign?session=${encodeURIComponent(token)}`;

export interface AppSigningDeps {
  service: HashSigningService;
  ca: SandboxTestCa;
  signings: SimulatedSignings;
  timings: SandboxTimings;
  mode: () => StationMode;
}

/**
 * Signing with a simulated phone app: start finds the sandbox account, prepares the digest with a certificate the
 * test CA issues to that person, and answers the verification code; the simulated user then signs, refuses or
 * never answers, and the polled complete reports it.
 */
export function appSigningSimulator(provider: AppSigningProvider, deps: AppSigningDeps): SigningMethod {
  return {
    signTypes: provider.signTypes,
    completePaths: provider.completePaths,
    async start(body) {
      assertSandboxSigning(deps.mode, provider.method);
      const request = parseZod(remoteSigningStartSchema, body, 'Invalid start-signing request');
      const account = provider.account(request);
      const signer = await deps.ca.issue(account.person);
      const started = await deps.service.startElsewhere(request, signer.certificate, provider.method);
      const challenge = verificationCode(Buffer.from(started.hexDigest, 'hex'));
      const pending = { token: started.token, client_id: request.client_id, doc_id: request.doc_id };
      const user = simulatedSigner(account.behaviour, deps.timings, {
        sign: async () => {
          const signature = await signer.sign(Buffer.from(started.hexDigest, 'hex'), started.digestAlgorithm);
          return deps.service.complete(provider.method, { ...pending, signature_value: Buffer.from(signature).toString('base64') });
        },
        abandon: () => deps.service.abandon(started.token, request.client_id, request.doc_id),
      });
      const showNow = request.wait_for_challenge_code !== false;
      const token = deps.signings.open(request.client_id, request.doc_id, { challenge, ...user }, showNow);
      const link = provider.showsQr ? appLink(provider.method, token) : undefined;
      return { status: 'OK', token, ...(showNow ? { challenge } : {}), ...(link ? { qr_code: link, redirect_uri: link } : {}) };
    },
    async complete(_path, body) {
      const request = parseZod(remoteSigningCompleteSchema, body, 'Invalid complete request');
      const answer = await deps.signings.complete(request.token ?? '', request.client_id, request.doc_id, request.timeout ?? 0);
      return 'running' in answer ? { status: 'RUNNING', challenge: answer.challenge } : completedAnswer(answer);
    },
    ...(provider.hasContinue
      ? {
          async continue(_path: string, body: unknown) {
            const request = parseZod(remoteSigningCompleteSchema, body, 'Invalid continue request');
            const token = request.token ?? '';
            return { status: 'OK', token, challenge: deps.signings.challenge(token, request.client_id, request.doc_id) };
          },
        }
      : {}),
  };
}
