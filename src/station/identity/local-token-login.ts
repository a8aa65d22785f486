import { createHash, createPublicKey, randomBytes } from 'node:crypto';
import type { IdentifiedPerson } from '../../core/schemas/identity-api.js';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { Token } from '../tokens/token.js';
import type { UserPrompt } from '../ports/user-prompt.js';
import type { Clock } from '../ports/clock.js';
import type { StationMode } from '../../core/schemas/station-mode.js';
import type { TrustedIssuers } from '../pki/trusted-issuers.js';
import { chooseTokenCertificate, type TokenCertificateCandidate } from '../tokens/choose-token-certificate.js';
import { IdentityError } from './identity-error.js';
import type { IdentityContext, IdentityMethod } from './identity-method.js';
import { identifiedPerson } from './identified-person.js';
import { signAuthentication } from './sign-authentication.js';
import { tokenKeyScheme } from '../signing/token-key-scheme.js';
import { verifyRawSignature } from '../pki/verify-raw-signature.js';

export const LOCAL_TOKEN_METHOD = 'local-token-login';

export interface LocalTokenLoginDeps {
  tokens(): Promise<Token[]>;
  userPrompt: UserPrompt;
  clock: Clock;
  mode: () => StationMode;
  /** Whose certificates identify people; in sandbox mode an empty list accepts any issuer (test cards). */
  trustedIssuers: TrustedIssuers;
}

type Candidate = TokenCertificateCandidate;

/**
 * Login with the ID card or USB token plugged into this machine: the user picks the authentication certificate,
 * agrees in the station's own prompt, types the PIN there, and the token signs a fresh random challenge with the
 * authentication key. The signature is verified against the certificate before the certificate's subject is
 * taken as the identity, so a token that cannot prove possession of the key identifies nobody. Only certificates
 * from a trusted issuer are offered: anyone can put a certificate with any name on a USB token.
 */
export function localTokenLogin(deps: LocalTokenLoginDeps): IdentityMethod {
  return {
    code: LOCAL_TOKEN_METHOD,
    label: 'ID card or USB token on this computer',
    kind: 'local',
    inputs: [],
    async begin(_request, context) {
      const candidates = await trustedOnly(deps, await authenticationCertificates(await deps.tokens()));
      const challenge = randomBytes(32);
      const controller = new AbortController();
      return {
        response: { nonce: challenge.toString('base64') },
        outcome: authenticate(deps, candidates, challenge, context, controller.signal),
        cancel: () => controller.abort(),
      };
    },
  };
}

async function authenticationCertificates(tokens: Token[]): Promise<Candidate[]> {
  const lists = await Promise.all(
    tokens.map(async (token) => {
      try {
        return (await token.listCertificates()).filter((c) => c.usage === 'authentication' && c.valid).map((certificate) => ({ token, certificate }));
      } catch {
        return []; // a token that cannot be read (removed meanwhile) offers nothing to log in with
      }
    }),
  );
  return lists.flat();
}

/** The candidates whose certificate a trusted CA issued; an error naming the setting when none is left. */
async function trustedOnly(deps: LocalTokenLoginDeps, candidates: Candidate[]): Promise<Candidate[]> {
  if (candidates.length === 0) {
    throw new IdentityError('ERR_IDENTITY_NO_AUTH_CERTIFICATE', 'No ID card or USB token with a valid authentication certificate is connected.', { status: 409, retriable: true });
  }
  if (!deps.trustedIssuers.configured) {
    if (deps.mode() === 'sandbox') return candidates;
    throw new IdentityError(
      'ERR_IDENTITY_TRUST_NOT_CONFIGURED',
      'Logging in with a local ID card or USB token in production mode needs the CA certificates that issue them: set identity.trustedIssuers.',
      { status: 503 },
    );
  }
  const now = deps.clock.now();
  const trusted: Candidate[] = [];
  for (const candidate of candidates) {
    if (await deps.trustedIssuers.issued(Buffer.from(candidate.certificate.certificate, 'base64'), now)) trusted.push(candidate);
  }
  if (trusted.length === 0) {
    const issuers = [...new Set(candidates.map(({ certificate }) => certificate.issuer))].join('; ');
    throw new IdentityError('ERR_IDENTITY_ISSUER_NOT_TRUSTED', `No connected authentication certificate comes from a trusted issuer (identity.trustedIssuers); found: ${issuers}.`, { status: 403 });
  }
  return trusted;
}

async function authenticate(deps: LocalTokenLoginDeps, candidates: Candidate[], challenge: Buffer, context: IdentityContext, signal: AbortSignal): Promise<IdentifiedPerson> {
  const chosen = await chooseTokenCertificate(deps.userPrompt, { requester: context.requester, purpose: 'authenticate' }, candidates, signal);
  const { token, certificate } = chosen;
  // @peculiar/x509 loads with the first login, not with the station.
  const { x509 } = await import('../pki/x509.js');
  const parsed = new x509.X509Certificate(Buffer.from(certificate.certificate, 'base64'));
  const now = deps.clock.now();
  if (now < parsed.notBefore || now > parsed.notAfter) {
    throw new IdentityError('ERR_IDENTITY_CERTIFICATE_EXPIRED', 'The authentication certificate is not valid at this time.', { status: 400 });
  }
  // Decided before the user is asked anything: a key the station cannot have sign fails here, not after the PIN.
  const scheme = tokenKeyScheme(certificate);
  const digest = new Uint8Array(createHash('sha256').update(challenge).digest());
  const signature = await signAuthentication(
    deps.userPrompt,
    { token, certificate, digest, hashAlgorithm: 'SHA-256', scheme, requester: context.requester, clientId: context.clientId },
    signal,
  );
  const publicKey = createPublicKey({ key: Buffer.from(parsed.publicKey.rawData), format: 'der', type: 'spki' });
  if (!verifyRawSignature(publicKey, scheme, 'SHA-256', challenge, signature)) {
    throw new IdentityError('ERR_IDENTITY_SIGNATURE_INVALID', 'The token’s signature over the challenge does not verify with its authentication certificate.', { status: 400 });
  }
  return await identifiedPerson(parsed, LOCAL_TOKEN_METHOD);
}
