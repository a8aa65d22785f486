import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { Database } from '../store/database.js';
import type { Clock } from '../ports/clock.js';
import { sqliteOidcAdapter } from './sqlite-oidc-adapter.js';
import type { OidcSigningJwk } from './oidc-signing-keys.js';
import type { OidcAccounts } from './oidc-accounts.js';
import { personClaims } from './person-claims.js';
import { OIDC_PATHS } from './oidc-paths.js';
import type { OidcLifetimes } from './oidc-lifetimes.js';
import { renderErrorPage } from './views/error-page.js';

/** Claims the provider knows, by scope (docs/oidc-provider.md#id-token); null entries are advertised without a scope. */
const OIDC_CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'given_name', 'family_name', 'birthdate'],
  pid: ['verified_claims'],
  email: null,
  phone_number: null,
  document_number: null,
  id_expiry_date: null,
  language: null,
} as const;

/** Exactly the claims the service's discovery document advertises (docs/oidc-provider.md#id-token). */
const CLAIMS_SUPPORTED = ['sub', 'name', 'family_name', 'given_name', 'birthdate', 'email', 'phone_number', 'document_number', 'id_expiry_date', 'language', 'verified_claims'];

/** The client assertion may live at most this long (docs/oidc-provider.md#client-assertion). */
const MAX_ASSERTION_SECONDS = 300;
const CLOCK_SKEW_SECONDS = 60;

export interface OidcProviderDeps {
  issuer: string;
  database: Database;
  clients: ClientRegistry;
  accounts: OidcAccounts;
  signingKeys: OidcSigningJwk[];
  cookieKeys: string[];
  clock: Clock;
  lifetimes: OidcLifetimes;
  logger: Logger;
}

/**
 * oidc-provider configured to the service's beta profile (docs/oidc-provider.md): code flow, query
 * response mode, private_key_jwt with RS256 and an exact token-endpoint audience, RS256 ID tokens, scopes openid
 * profile pid, state and nonce required, no UserInfo, no refresh tokens.
 */
export function createOidcProvider(deps: OidcProviderDeps): Provider {
  const configuration: Configuration = {
    adapter: sqliteOidcAdapter(deps.database, deps.clients, deps.clock),
    jwks: { keys: deps.signingKeys },
    cookies: { keys: deps.cookieKeys },
    clientAuthMethods: ['private_key_jwt'],
    enabledJWA: RS256_ONLY,
    responseTypes: ['code'],
    scopes: ['openid', 'profile', 'pid'],
    claims: OIDC_CLAIMS as unknown as Configuration['claims'],
    // Code flow still puts the scope's claims in the ID token: there is no UserInfo to fetch them from.
    conformIdTokenClaims: false,
    allowOmittingSingleRegisteredRedirectUri: false,
    pkce: { required: () => false },
    issueRefreshToken: () => false,
    features: FEATURES_OFF,
    extraParams: REQUIRED_PARAMS,
    assertJwtClientAuthClaimsAndHeader: clientAssertionCheck(new URL(OIDC_PATHS.token, deps.issuer).href, deps.clock),
    async findAccount(_ctx, sub, token) {
      const person = await deps.accounts.find(sub);
      if (!person) return undefined;
      const amr = token && 'amr' in token ? (token.amr as string[] | undefined) : undefined;
      return { accountId: sub, claims: () => personClaims(sub, person, amr) };
    },
    interactions: { url: (_ctx, interaction) => `${OIDC_PATHS.interaction}/${interaction.uid}` },
    routes: { authorization: OIDC_PATHS.authorization, token: OIDC_PATHS.token, jwks: OIDC_PATHS.jwks },
    ttl: {
      AuthorizationCode: deps.lifetimes.authorizationCode,
      IdToken: deps.lifetimes.idToken,
      AccessToken: deps.lifetimes.accessToken,
      Interaction: deps.lifetimes.interaction,
      Session: deps.lifetimes.session,
      Grant: deps.lifetimes.session,
    },
    discovery: DISCOVERY_EXTRAS,
    // oidc-provider refuses to fetch from loopback and private addresses (SSRF protection for dynamically
    // registered URLs). Here the only URLs it fetches are client JWKS URLs that the station's administrator
    // registered, and an integrator on this same machine (127.0.0.1) is a normal set-up: fetch without that filter.
    fetch: (url, options) => {
      const { dispatcher: _ssrfFilter, ...rest } = options as RequestInit & { dispatcher?: unknown };
      return globalThis.fetch(url, rest);
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = renderErrorPage(out.error, out.error_description);
    },
  };

  const provider = new Provider(deps.issuer, configuration);
  provider.use(profileMiddleware());
  provider.on('server_error', (_ctx, error) => deps.logger.error({ err: error }, 'OIDC provider failed'));
  return provider;
}

const RS256_ONLY: Configuration['enabledJWA'] = {
  clientAuthSigningAlgValues: ['RS256'],
  idTokenSigningAlgValues: ['RS256'],
  requestObjectSigningAlgValues: ['RS256'],
  authorizationSigningAlgValues: ['RS256'],
  userinfoSigningAlgValues: ['RS256'],
  introspectionSigningAlgValues: ['RS256'],
};

/** Everything the beta profile does not offer. */
const FEATURES_OFF: Configuration['features'] = {
  devInteractions: { enabled: false },
  userinfo: { enabled: false },
  rpInitiatedLogout: { enabled: false },
  claimsParameter: { enabled: false },
  introspection: { enabled: false },
  revocation: { enabled: false },
  pushedAuthorizationRequests: { enabled: false },
  dPoP: { enabled: false },
  resourceIndicators: { enabled: false },
};

const required = (name: string) => (_ctx: KoaContextWithOIDC, value: string | undefined) => {
  if (!value) throw new errors.InvalidRequest(`${name} is required`);
};

const REQUIRED_PARAMS: Configuration['extraParams'] = {
  state: required('state'),
  nonce: required('nonce'),
  scope: (_ctx, value) => {
    if (!value?.split(' ').includes('openid')) throw new errors.InvalidRequest('scope must include openid');
  },
};

const DISCOVERY_EXTRAS: Configuration['discovery'] = {
  verified_claims_supported: true,
  trust_frameworks_supported: ['eidas'],
  evidence_supported: ['electronic_record'],
  claims_in_verified_claims_supported: ['given_name', 'family_name', 'birthdate', 'nationalities', 'place_of_birth', 'personal_administrative_number', 'document_number', 'id_expiry_date'],
};

/**
 * private_key_jwt as the interface asks: the exact token endpoint audience, a named key, at most 5 minutes.
 * oidc-provider itself makes `sub` the client_id: it finds the client by the assertion's sub and refuses a
 * client_id parameter that names another.
 */
function clientAssertionCheck(tokenEndpoint: string, clock: Clock): NonNullable<Configuration['assertJwtClientAuthClaimsAndHeader']> {
  return async (_ctx, claims, header) => {
    if (claims.aud !== tokenEndpoint) throw new errors.InvalidClientAuth(`aud must be exactly the token endpoint URL ${tokenEndpoint}`);
    if (typeof header.kid !== 'string' || !header.kid) throw new errors.InvalidClientAuth('the assertion header must name the registered key (kid)');
    if (typeof claims.iat !== 'number' || typeof claims.exp !== 'number') throw new errors.InvalidClientAuth('iat and exp are required');
    if (claims.exp - claims.iat > MAX_ASSERTION_SECONDS) throw new errors.InvalidClientAuth('exp must be at most 5 minutes after iat');
    // An iat in the future would stretch the usable window past 5 minutes; allow only ordinary clock skew.
    if (claims.iat > clock.now().getTime() / 1000 + CLOCK_SKEW_SECONDS) throw new errors.InvalidClientAuth('iat is in the future');
  };
}

/** What the station changes in oidc-provider's answers to keep to the beta profile and the station's rules. */
function profileMiddleware(): Parameters<Provider['use']>[0] {
  return async (ctx, next) => {
    // Other response modes are refused. oidc-provider would deliver that refusal in the mode asked for (a fragment,
    // or a form_post page whose inline script the CSP blocks); an unknown mode name makes it answer in the query.
    const mode = ctx.query.response_mode;
    if (ctx.path === OIDC_PATHS.authorization && mode !== undefined && mode !== 'query') {
      ctx.query = { ...ctx.query, response_mode: 'unsupported' };
    }
    await next();
    // The interface answers the authorization request with a 302 (oidc-provider uses 303; both make a GET).
    if ((ctx.oidc?.route === 'authorization' || ctx.oidc?.route === 'resume') && ctx.status === 303) ctx.status = 302;
    const body = ctx.body && typeof ctx.body === 'object' ? (ctx.body as Record<string, unknown>) : undefined;
    if (ctx.oidc?.route === 'discovery' && body) {
      // oidc-provider always lists form_post and fragment, its built-in refresh_token grant and the claims it
      // adds itself; the beta profile is narrower (docs/oidc-provider.md#endpoints).
      body.response_modes_supported = ['query'];
      body.grant_types_supported = ['authorization_code'];
      body.claims_supported = CLAIMS_SUPPORTED;
    }
    if (ctx.oidc?.route === 'token' && body) remapTokenError(ctx, body);
    // Public metadata needs no wildcard CORS: the station never answers Access-Control-Allow-Origin: *.
    if (ctx.response.get('Access-Control-Allow-Origin') === '*') ctx.remove('Access-Control-Allow-Origin');
  };
}

/**
 * Two token-endpoint answers where oidc-provider's error code differs from the service's (docs/oidc-provider.md#errors-token-endpoint) and RFC 6749's: a grant
 * type the client is not registered for is unauthorized_client, and an assertion whose sub names another client
 * than client_id is a wrong assertion (invalid_client, 401). Matched on the library's messages; tests pin them.
 */
function remapTokenError(ctx: { status: number }, body: Record<string, unknown>): void {
  if (body.error !== 'invalid_request') return;
  if (body.error_description === 'requested grant type is not allowed for this client') {
    body.error = 'unauthorized_client';
  } else if (body.error_description === 'client_id mismatch') {
    body.error = 'invalid_client';
    body.error_description = 'the client_assertion sub must be the client_id';
    ctx.status = 401;
  }
}
