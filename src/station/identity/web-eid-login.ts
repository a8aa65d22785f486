import { randomBytes } from 'node:crypto';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import { WEB_EID_LOGIN_METHOD, webEidAuthTokenSchema } from '../../core/schemas/iframe-protocol.js';
import type { StationMode } from '../../core/schemas/station-mode.js';
import type { Clock } from '../ports/clock.js';
import type { TrustedIssuers } from '../pki/trusted-issuers.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { IdentityError } from './identity-error.js';
import type { IdentityMethod } from './identity-method.js';
import { identifiedPerson } from './identified-person.js';

export interface WebEidLoginDeps {
  clients: Pick<ClientRegistry, 'find'>;
  clock: Clock;
  mode: () => StationMode;
  /** Whose certificates identify people; in sandbox mode an empty list accepts any issuer (test cards). */
  trustedIssuers: TrustedIssuers;
}

/**
 * Web eID identification (`ee-web-eid-login`): start hands out a nonce; the web page has the station's iframe
 * helper (or any Web eID implementation) sign it with the ID card's authentication key, bound to the page's
 * origin; complete brings the `web-eid:1.0` token, checked against the nonce, the client's allowed origins and
 * the trusted issuers before the certificate's subject is taken as the identity.
 */
export function webEidLogin(deps: WebEidLoginDeps): IdentityMethod {
  return {
    code: WEB_EID_LOGIN_METHOD,
    label: 'ID card in the browser (Web eID)',
    kind: 'local',
    inputs: [],
    onLoginPage: false,
    async begin(_request, context) {
      const nonce = randomBytes(32).toString('base64');
      let present!: (evidence: Readonly<Record<string, unknown>>) => Promise<void>;
      let fail!: (error: Error) => void;
      const outcome = new Promise<IdentifiedPerson>((resolve, reject) => {
        fail = reject;
        present = async (evidence) => {
          try {
            resolve(await identify(deps, context.clientId, nonce, evidence.authToken));
          } catch (error) {
            reject(error as Error);
          }
        };
      });
      return {
        response: { nonce },
        outcome,
        present,
        cancel: () => fail(new IdentityError('ERR_IDENTITY_CANCELLED', 'The identification was abandoned.', { status: 410 })),
      };
    },
  };
}

async function identify(deps: WebEidLoginDeps, clientId: string, nonce: string, authToken: unknown): Promise<IdentifiedPerson> {
  const token = webEidAuthTokenSchema.safeParse(authToken);
  if (!token.success) throw new IdentityError('ERR_IDENTITY_TOKEN_INVALID', 'complete needs the web-eid:1.0 authentication token.', { status: 400 });
  const client = await deps.clients.find(clientId);
  const now = deps.clock.now();
  const { verifyWebEidAuthToken } = await import('./verify-web-eid-auth-token.js');
  const certificate = verifyWebEidAuthToken(token.data, { nonce, origins: client?.allowedOrigins ?? [], now });
  const trusted = deps.trustedIssuers.configured ? await deps.trustedIssuers.issued(Buffer.from(certificate.rawData), now) : deps.mode() === 'sandbox';
  if (!trusted) throw new IdentityError('ERR_IDENTITY_ISSUER_NOT_TRUSTED', `The certificate's issuer ${certificate.issuer} is not trusted (identity.trustedIssuers).`, { status: 403 });
  return await identifiedPerson(certificate, WEB_EID_LOGIN_METHOD);
}
