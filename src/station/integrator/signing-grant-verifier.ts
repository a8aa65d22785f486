import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { StationError } from '../../core/errors/station-error.js';
import { SIGNING_GRANT_MAX_LIFETIME_S, SIGNING_GRANT_TYPE, signingGrantClaimsSchema, type SigningGrantClaims } from '../../core/schemas/signing-grant.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { OneTimeUseLedger } from '../oidc/one-time-use-ledger.js';
import type { Clock } from '../ports/clock.js';

export interface SigningGrantVerifierDeps {
  clients: Pick<ClientRegistry, 'find'>;
  /** The audiences a grant may name: `<the station's own origin>/integrator`, for each name the station answers. */
  audiences: () => string[];
  ledger: Pick<OneTimeUseLedger, 'recordAssertion'>;
  clock: Clock;
}

/** Asymmetric only: the station must never hold what makes a grant. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const CLOCK_TOLERANCE_S = 5;

const invalid = (message: string, cause?: unknown): StationError => new StationError('ERR_INTEGRATOR_GRANT_INVALID', message, { status: 401, cause });

/**
 * Checks a signing grant: a JWT the integrator's server signed with the key it registered for private_key_jwt,
 * issued by that client to this station, for the page's own origin, alive at most five minutes, each used once.
 */
export class SigningGrantVerifier {
  readonly #deps: SigningGrantVerifierDeps;
  /** One remote key set per URL, so jose's cache and cooldown apply across grants. */
  readonly #remoteKeys = new Map<string, JWTVerifyGetKey>();

  constructor(deps: SigningGrantVerifierDeps) {
    this.#deps = deps;
  }

  /** The grant's claims, when its signature, issuer, audience, lifetime and origin hold; the jti is not spent yet. */
  async verify(clientId: string, grant: string, origin: string): Promise<SigningGrantClaims> {
    const keys = await this.#keysOf(clientId);
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(grant, keys, {
        issuer: clientId,
        audience: this.#deps.audiences(),
        typ: SIGNING_GRANT_TYPE,
        algorithms: ALGORITHMS,
        requiredClaims: ['iat', 'exp', 'jti'],
        maxTokenAge: SIGNING_GRANT_MAX_LIFETIME_S + CLOCK_TOLERANCE_S,
        clockTolerance: CLOCK_TOLERANCE_S,
        currentDate: this.#deps.clock.now(),
      }));
    } catch (cause) {
      throw invalid(`The signing grant was refused: ${(cause as Error).message}`, cause);
    }
    const claims = signingGrantClaimsSchema.safeParse(payload);
    if (!claims.success) throw invalid(`The signing grant's claims are malformed: ${claims.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`);
    if (claims.data.exp - claims.data.iat > SIGNING_GRANT_MAX_LIFETIME_S) throw invalid(`A signing grant may live ${SIGNING_GRANT_MAX_LIFETIME_S} s at most.`);
    if (claims.data.origin !== origin) throw invalid(`The signing grant was made for ${claims.data.origin}, not for this page (${origin}).`);
    return claims.data;
  }

  /** Spends the grant's jti; a second use, even at the same moment, is refused. */
  async spend(clientId: string, claims: SigningGrantClaims): Promise<void> {
    const recorded = await this.#deps.ledger.recordAssertion(`signing-grant:${clientId}:${claims.jti}`, '{}', claims.exp + CLOCK_TOLERANCE_S);
    if (!recorded) throw new StationError('ERR_INTEGRATOR_GRANT_REUSED', 'This signing grant was already used: ask the server for a new one.', { status: 401 });
  }

  async #keysOf(clientId: string): Promise<JWTVerifyGetKey> {
    const client = await this.#deps.clients.find(clientId);
    if (client?.jwks) return createLocalJWKSet(client.jwks as Parameters<typeof createLocalJWKSet>[0]);
    if (client?.jwksUri) {
      let keys = this.#remoteKeys.get(client.jwksUri);
      if (!keys) this.#remoteKeys.set(client.jwksUri, (keys = createRemoteJWKSet(new URL(client.jwksUri))));
      return keys;
    }
    throw new StationError('ERR_INTEGRATOR_NO_KEY', `Client "${clientId}" has no registered key to check signing grants with: register one with signing-station clients update ${clientId} --jwks FILE.`, {
      status: 409,
    });
  }
}
