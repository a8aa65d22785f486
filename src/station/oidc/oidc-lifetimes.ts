/** Lifetimes in seconds. Codes are short-lived; ID tokens decide how long a retired signing key stays published. */
export interface OidcLifetimes {
  authorizationCode: number;
  idToken: number;
  accessToken: number;
  interaction: number;
  session: number;
}

export const DEFAULT_OIDC_LIFETIMES: OidcLifetimes = { authorizationCode: 60, idToken: 600, accessToken: 600, interaction: 600, session: 600 };

