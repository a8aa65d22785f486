import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';

describe('discovery and JWKS', () => {
  let station: OidcTestStation;
  let discovery: Record<string, unknown>;
  beforeAll(async () => {
    station = await startOidcTestStation();
    const response = await fetch(`${station.baseUrl}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    discovery = (await response.json()) as Record<string, unknown>;
  });
  afterAll(() => station?.dispose());

  it('advertises the station as issuer with the interface’s endpoint paths', () => {
    expect(discovery).toMatchObject({
      issuer: station.baseUrl,
      authorization_endpoint: `${station.baseUrl}/oidc/oauth/authorize`,
      token_endpoint: `${station.baseUrl}/oidc/oauth/token`,
      jwks_uri: `${station.baseUrl}/.well-known/jwks.json`,
    });
  });

  it('advertises only the beta profile', () => {
    expect(discovery.response_types_supported).toEqual(['code']);
    expect(discovery.response_modes_supported).toEqual(['query']);
    expect(discovery.grant_types_supported).toEqual(['authorization_code']);
    expect(discovery.token_endpoint_auth_methods_supported).toEqual(['private_key_jwt']);
    expect(discovery.token_endpoint_auth_signing_alg_values_supported).toEqual(['RS256']);
    expect(discovery.id_token_signing_alg_values_supported).toEqual(['RS256']);
    expect(discovery.scopes_supported).toEqual(['openid', 'profile', 'pid']);
    expect([...(discovery.claims_supported as string[])].sort()).toEqual(
      ['sub', 'name', 'family_name', 'given_name', 'birthdate', 'email', 'phone_number', 'document_number', 'id_expiry_date', 'language', 'verified_claims'].sort(),
    );
    expect(discovery.verified_claims_supported).toBe(true);
    expect(discovery.trust_frameworks_supported).toEqual(['eidas']);
    expect(discovery.claims_in_verified_claims_supported).toEqual(expect.arrayContaining(['given_name', 'family_name', 'birthdate']));
  });

  it('has no UserInfo, end-session, PAR, introspection or revocation endpoint', () => {
    for (const member of ['userinfo_endpoint', 'end_session_endpoint', 'pushed_authorization_request_endpoint', 'introspection_endpoint', 'revocation_endpoint', 'registration_endpoint']) {
      expect(discovery[member]).toBeUndefined();
    }
  });

  it('is accepted by openid-client discovery (issuer check included)', async () => {
    const config = await client.discovery(new URL(station.baseUrl), 'any', undefined, client.None(), { execute: [client.allowInsecureRequests] });
    expect(config.serverMetadata().issuer).toBe(station.baseUrl);
  });

  it('publishes RS256 public keys only', async () => {
    const response = await fetch(`${station.baseUrl}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Array<Record<string, unknown>> };
    expect(keys.length).toBe(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(typeof keys[0]!.kid).toBe('string');
    for (const privatePart of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(keys[0]![privatePart]).toBeUndefined();
    expect(Buffer.from(String(keys[0]!.n), 'base64url').length).toBe(256);
  });

  it('answers with the issuer’s URLs when reached as localhost too', async () => {
    const port = new URL(station.baseUrl).port;
    const { request } = await import('node:http');
    const body = await new Promise<string>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/.well-known/openid-configuration', headers: { host: `localhost:${port}` } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve(text));
      })
        .on('error', reject)
        .end();
    });
    expect(JSON.parse(body).token_endpoint).toBe(`${station.baseUrl}/oidc/oauth/token`);
  });
});
