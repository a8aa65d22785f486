import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { startStationWithRelyingParty, stopStationWithRelyingParty } from '../../support/oidc/oidc-station-with-relying-party.js';
import type { RelyingParty } from '../../support/oidc/oidc-relying-party.js';

describe('authorization endpoint: request checks', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  beforeAll(async () => {
    ({ station, rp } = await startStationWithRelyingParty());
  });
  afterAll(() => stopStationWithRelyingParty(station, rp));

  const authorize = (params: Record<string, string | undefined>) => {
    const url = new URL('/oidc/oauth/authorize', station.baseUrl);
    const all = { response_type: 'code', client_id: rp.clientId, redirect_uri: rp.redirectUri, scope: 'openid profile', state: 'st-123', nonce: 'n-456', ...params };
    for (const [name, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(name, value);
    return fetch(url, { redirect: 'manual' });
  };

  /** The error must go back to the client's redirect_uri, in the query, with the state when there was one. */
  async function expectRedirectedError(response: Response, error: string, state: string | null = 'st-123'): Promise<URL> {
    expect(response.status).toBeGreaterThanOrEqual(302);
    expect(response.status).toBeLessThanOrEqual(303);
    const location = new URL(response.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(rp.redirectUri);
    expect(location.hash).toBe('');
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('code')).toBeNull();
    expect(location.searchParams.get('state')).toBe(state);
    return location;
  }

  it('sends a valid request to the station’s login page', async () => {
    const response = await authorize({});
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^\/oidc\/interaction\/[\w-]+$/);
  });

  it('requires state', async () => {
    const location = await expectRedirectedError(await authorize({ state: undefined }), 'invalid_request', null);
    expect(location.searchParams.get('error_description')).toMatch(/state/);
  });

  it('requires nonce', async () => {
    const location = await expectRedirectedError(await authorize({ nonce: undefined }), 'invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/nonce/);
  });

  it('requires openid in scope', async () => {
    const location = await expectRedirectedError(await authorize({ scope: 'profile' }), 'invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/openid/);
  });

  it('accepts response_type code only', async () => {
    for (const responseType of ['token', 'id_token', 'code id_token']) {
      const response = await authorize({ response_type: responseType });
      const location = new URL(response.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(rp.redirectUri);
      expect(new URLSearchParams(location.hash.slice(1) || location.search).get('error')).toMatch(/^(unsupported_response_type|unauthorized_client|invalid_request)$/);
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('accepts response_mode query only, and says so in the query', async () => {
    for (const mode of ['fragment', 'form_post', 'query.jwt']) {
      await expectRedirectedError(await authorize({ response_mode: mode }), 'unsupported_response_mode');
    }
    expect((await authorize({ response_mode: 'query' })).headers.get('location')).toMatch(/^\/oidc\/interaction\//);
  });

  it('never redirects to an unregistered or inexact redirect_uri', async () => {
    for (const redirectUri of [`${rp.redirectUri}/x`, `${rp.redirectUri}?a=1`, rp.redirectUri.replace('127.0.0.1', 'localhost'), 'https://evil.example/cb']) {
      const response = await authorize({ redirect_uri: redirectUri });
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toMatch(/text\/html/);
      expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      const page = await response.text();
      expect(page).toMatch(/redirect_uri/);
      expect(page).not.toMatch(/<script/i);
    }
  });

  it('refuses an unknown client without redirecting', async () => {
    const response = await authorize({ client_id: 'nobody' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toMatch(/invalid_client|client/);
  });
});

describe('OIDC in production mode', () => {
  it('is not available (the flow is a sandbox-only beta)', async () => {
    const station = await startOidcTestStation({ config: { mode: 'production' } });
    try {
      const discovery = await fetch(`${station.baseUrl}/.well-known/openid-configuration`);
      expect(discovery.status).toBe(404);
      expect(await discovery.json()).toMatchObject({ status: 'error', code: 'ERR_OIDC_SANDBOX_ONLY' });
      const token = await fetch(`${station.baseUrl}/oidc/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=authorization_code' });
      expect(token.status).toBe(404);
      expect(await token.json()).toMatchObject({ error: 'invalid_request' });
    } finally {
      await station.dispose();
    }
  });
});
