/** The OIDC endpoints' paths (SERVICE-INTERFACE 4.1) and the station's own login pages. */
export const OIDC_PATHS = {
  discovery: '/.well-known/openid-configuration',
  jwks: '/.well-known/jwks.json',
  authorization: '/oidc/oauth/authorize',
  token: '/oidc/oauth/token',
  interaction: '/oidc/interaction',
  assets: '/oidc/assets',
} as const;
