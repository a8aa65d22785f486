import type { ClientMetadata } from 'oidc-provider';
import type { ClientSettings } from '../clients/client-registry.js';

/**
 * A registered client as oidc-provider sees it: the beta profile only (docs/oidc-provider.md#clients): code flow with
 * query response mode, private_key_jwt with RS256, RS256 ID tokens.
 */
export function toOidcClientMetadata(client: ClientSettings): ClientMetadata {
  return {
    client_id: client.clientId,
    redirect_uris: client.redirectUris,
    response_types: ['code'],
    response_modes: ['query'],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'RS256',
    id_token_signed_response_alg: 'RS256',
    ...(client.jwks ? { jwks: client.jwks as unknown as ClientMetadata['jwks'] } : {}),
    ...(client.jwksUri ? { jwks_uri: client.jwksUri } : {}),
  };
}
