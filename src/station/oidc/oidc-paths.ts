/** The OIDC endpoints' paths (docs/oidc-provider.md#endpoints) and the station's own login pages. */
export const OIDC_PATHS = {
  discovery: '/.well-known/openid-configuration',
  jwks: '/.well-known/jwks.json',
  authorization: '/oidc/oauth/authorize',
  token: '/oidc/oauth/token',
  interaction: '/oidc/interaction',
  assets: '/oidc/assets',
} as const;
