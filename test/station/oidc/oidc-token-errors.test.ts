import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { ASSERTION_TYPE, createRelyingParty, generateRsaKey, postToken, type RelyingParty } from '../../support/oidc/oidc-relying-party.js';
import { loginOverHttp } from '../../support/oidc/oidc-http-login.js';
import { startStationWithRelyingParty, stopStationWithRelyingParty } from '../../support/oidc/oidc-station-with-relying-party.js';
import { startTestStation } from '../../support/station/test-station.js';
import { join } from 'node:path';
import { holdWriteLock } from '../../support/station/hold-write-lock.js';
import { DEFAULT_OIDC_LIFETIMES } from '../../../src/station/oidc/oidc-lifetimes.js';

async function freshCode(station: OidcTestStation, rp: RelyingParty): Promise<string> {
  const url = client.buildAuthorizationUrl(rp.config, { redirect_uri: rp.redirectUri, scope: 'openid profile', state: client.randomState(), nonce: client.randomNonce() });
  const { callback } = await loginOverHttp(station.baseUrl, url, { method: 'smartid', idcode: '30303039914', country: 'EE' });
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  return code;
}

async function exchange(rp: RelyingParty, code: string, overrides: Record<string, string | undefined> = {}, assertion?: string) {
  return postToken(rp, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: rp.redirectUri,
    client_id: rp.clientId,
    client_assertion_type: ASSERTION_TYPE,
    client_assertion: assertion ?? (await rp.assertion()),
    ...overrides,
  });
}

function expectOAuthError(response: { status: number; body: Record<string, unknown> }, error: string, status: number): void {
  expect(response.body.error).toBe(error);
  expect(typeof response.body.error_description).toBe('string');
  expect(response.status).toBe(status);
}

describe('token endpoint: client authentication (invalid_client)', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  beforeAll(async () => {
    ({ station, rp } = await startStationWithRelyingParty());
  });
  afterAll(() => stopStationWithRelyingParty(station, rp));

  it('accepts the well-formed assertion (control)', async () => {
    const response = await exchange(rp, await freshCode(station, rp));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', scope: 'openid profile' });
    expect(typeof response.body.id_token).toBe('string');
    expect(typeof response.body.access_token).toBe('string');
    expect(response.body.expires_in).toBeGreaterThan(0);
    expect(response.body.refresh_token).toBeUndefined();
  });

  it('ignores a resource parameter (RFC 8707 is not in the profile; RFC 6749 3.2: unknown parameters are ignored)', async () => {
    const response = await exchange(rp, await freshCode(station, rp), { resource: 'https://api.example.test/' });
    expect(response.status).toBe(200);
    expect(typeof response.body.id_token).toBe('string');
  });

  it('refuses a missing client_assertion', async () => {
    expectOAuthError(await exchange(rp, 'any', { client_assertion: undefined, client_assertion_type: undefined }), 'invalid_client', 401);
  });

  it('refuses an assertion signed with another key', async () => {
    const other = await generateRsaKey();
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({}, {}, other.privateKey)), 'invalid_client', 401);
  });

  it('refuses an unknown kid', async () => {
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({}, { kid: 'not-registered' })), 'invalid_client', 401);
  });

  it('refuses an assertion without kid', async () => {
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({}, { kid: undefined })), 'invalid_client', 401);
  });

  it('refuses aud = issuer (it must be the token endpoint URL exactly)', async () => {
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({ aud: station.baseUrl })), 'invalid_client', 401);
  });

  it('refuses an aud array, a trailing slash, and localhost for 127.0.0.1', async () => {
    for (const aud of [[rp.tokenEndpoint], `${rp.tokenEndpoint}/`, rp.tokenEndpoint.replace('127.0.0.1', 'localhost')]) {
      expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({ aud })), 'invalid_client', 401);
    }
  });

  it('refuses exp 6 minutes after iat', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({ iat: now, exp: now + 360 })), 'invalid_client', 401);
  });

  it('refuses an iat in the future (it would stretch the 5-minute window)', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({ iat: now + 3600, exp: now + 3660 })), 'invalid_client', 401);
  });

  it('accepts exp exactly 5 minutes after iat (the limit)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const response = await exchange(rp, await freshCode(station, rp), {}, await rp.assertion({ iat: now, exp: now + 300 }));
    expect(response.status).toBe(200);
  });

  it('refuses an expired assertion and one without exp, jti or iat', async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const claims of [{ iat: now - 120, exp: now - 60 }, { exp: undefined }, { jti: undefined }, { iat: undefined }]) {
      expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion(claims)), 'invalid_client', 401);
    }
  });

  it('refuses iss or sub other than the client_id', async () => {
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({ iss: 'someone-else' })), 'invalid_client', 401);
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({ sub: 'someone-else' })), 'invalid_client', 401);
  });

  it('refuses a replayed assertion (same jti), even for a new code', async () => {
    const assertion = await rp.assertion();
    expect((await exchange(rp, await freshCode(station, rp), {}, assertion)).status).toBe(200);
    expectOAuthError(await exchange(rp, await freshCode(station, rp), {}, assertion), 'invalid_client', 401);
  });

  it('refuses an assertion replayed after its first use failed for another reason (a made-up code)', async () => {
    const assertion = await rp.assertion();
    expectOAuthError(await exchange(rp, 'made-up-code', {}, assertion), 'invalid_grant', 400);
    expectOAuthError(await exchange(rp, await freshCode(station, rp), {}, assertion), 'invalid_client', 401);
  });

  it('refuses algorithms other than RS256', async () => {
    const pss = (await crypto.subtle.generateKey(
      { name: 'RSA-PSS', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) },
      true,
      ['sign', 'verify'],
    )) as CryptoKeyPair;
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({}, { alg: 'PS256' }, pss.privateKey)), 'invalid_client', 401);
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['sign']);
    expectOAuthError(await exchange(rp, 'any', {}, await rp.assertion({}, { alg: 'HS256' }, hmac as CryptoKey)), 'invalid_client', 401);
  });

  it('refuses another authentication method (client_secret_post, Basic)', async () => {
    expectOAuthError(await exchange(rp, 'any', { client_assertion: undefined, client_assertion_type: undefined, client_secret: 'a-secret-value-123' }), 'invalid_client', 401);
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'any', redirect_uri: rp.redirectUri });
    const basic = await fetch(rp.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${rp.clientId}:a-secret-value-123`).toString('base64')}` },
      body: form,
    });
    expect(basic.status).toBe(401);
    expect(((await basic.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('refuses an unknown client', async () => {
    const assertion = await rp.assertion({ iss: 'nobody', sub: 'nobody' });
    expectOAuthError(await exchange(rp, 'any', { client_id: 'nobody' }, assertion), 'invalid_client', 401);
  });

  it('refuses a browser Origin on the token endpoint (server to server only)', async () => {
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: rp.redirectUri, client_assertion_type: ASSERTION_TYPE, client_assertion: await rp.assertion() });
    const response = await fetch(rp.tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(rp.redirectUri).origin }, body: form });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'access_denied' });
  });
});

describe('token endpoint: grant and request errors', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  beforeAll(async () => {
    ({ station, rp } = await startStationWithRelyingParty());
  });
  afterAll(() => stopStationWithRelyingParty(station, rp));

  it('refuses a reused code (invalid_grant)', async () => {
    const code = await freshCode(station, rp);
    expect((await exchange(rp, code)).status).toBe(200);
    expectOAuthError(await exchange(rp, code), 'invalid_grant', 400);
  });

  it('refuses a redirect_uri other than the authorization request’s (invalid_grant)', async () => {
    const code = await freshCode(station, rp);
    expectOAuthError(await exchange(rp, code, { redirect_uri: `${rp.redirectUri}/other` }), 'invalid_grant', 400);
  });

  it('refuses a made-up code (invalid_grant)', async () => {
    expectOAuthError(await exchange(rp, 'made-up-code'), 'invalid_grant', 400);
  });

  it('refuses a grant type the client may not use (unauthorized_client)', async () => {
    expectOAuthError(await exchange(rp, 'x', { grant_type: 'refresh_token', refresh_token: 'x', code: undefined, redirect_uri: undefined }), 'unauthorized_client', 400);
  });

  it('refuses missing or malformed parameters (invalid_request)', async () => {
    expectOAuthError(await exchange(rp, 'x', { redirect_uri: undefined }), 'invalid_request', 400);
    expectOAuthError(await exchange(rp, 'x', { code: undefined }), 'invalid_request', 400);
    expectOAuthError(await exchange(rp, 'x', { grant_type: undefined }), 'invalid_request', 400);
    expectOAuthError(await exchange(rp, 'x', { client_assertion_type: 'urn:other' }), 'invalid_request', 400);
    expectOAuthError(await exchange(rp, 'x', {}, 'not-a-jwt'), 'invalid_request', 400);
  });
});

// A station of its own, on a clock the test moves forward: the code's lifetime passes without waiting for it.
describe('token endpoint: code lifetime', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  let ahead = 0;
  beforeAll(async () => {
    station = await startOidcTestStation({}, { clock: { now: () => new Date(Date.now() + ahead) } });
    rp = await createRelyingParty(station);
  });
  afterAll(() => stopStationWithRelyingParty(station, rp));

  it('refuses an expired code (invalid_grant)', async () => {
    const code = await freshCode(station, rp);
    ahead = (DEFAULT_OIDC_LIFETIMES.authorizationCode + 1) * 1000;
    expectOAuthError(await exchange(rp, code), 'invalid_grant', 400);
  });
});

describe('token endpoint: jti replay cache survives a restart', () => {
  it('refuses an assertion replayed after the station restarted', async () => {
    let station = await startOidcTestStation();
    const dataDir = station.dataDir;
    const rp = await createRelyingParty(station, { clientId: 'restart-rp' });
    const assertion = await rp.assertion({ exp: Math.floor(Date.now() / 1000) + 120 });
    expect((await exchange(rp, await freshCode(station, rp), {}, assertion)).status).toBe(200);
    const port = Number(new URL(station.baseUrl).port);
    await station.close();

    // Same port, so the assertion's aud still names this token endpoint: only the jti record can refuse it.
    const restarted = await startTestStation({ dataDir, port }, {});
    try {
      const replay = await fetch(`${restarted.baseUrl}/oidc/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: rp.redirectUri, client_assertion_type: ASSERTION_TYPE, client_assertion: assertion }),
      });
      expect(await replay.json()).toMatchObject({ error: 'invalid_client' });
      expect(replay.status).toBe(401);
      // Control: a fresh assertion passes client authentication and fails only on the made-up code, so the jti
      // record is what refused the replay.
      const control = await fetch(`${restarted.baseUrl}/oidc/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: rp.redirectUri, client_assertion_type: ASSERTION_TYPE, client_assertion: await rp.assertion() }),
      });
      expect(await control.json()).toMatchObject({ error: 'invalid_grant' });
    } finally {
      await restarted.dispose();
      await rp.close();
      station = undefined as never;
    }
  });
});

describe('token endpoint: single use, recorded before the answer', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  beforeAll(async () => {
    ({ station, rp } = await startStationWithRelyingParty());
  });
  afterAll(() => stopStationWithRelyingParty(station, rp));

  it('one assertion sent in parallel with several codes authenticates once', async () => {
    const codes = await Promise.all([0, 1, 2, 3].map(() => freshCode(station, rp)));
    const assertion = await rp.assertion();
    const responses = await Promise.all(codes.map((code) => exchange(rp, code, {}, assertion)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 200)) expectOAuthError(response, 'invalid_client', 401);
  });

  it('a replayed assertion is refused without using up the code: the rightful client redeems it next', async () => {
    const used = await rp.assertion();
    expect((await exchange(rp, await freshCode(station, rp), {}, used)).status).toBe(200);
    const code = await freshCode(station, rp);
    expectOAuthError(await exchange(rp, code, {}, used), 'invalid_client', 401);
    const rightful = await exchange(rp, code);
    expect(rightful.status).toBe(200);
    expect(typeof rightful.body.id_token).toBe('string');
  });

  it('one code redeemed in parallel yields tokens once', async () => {
    const code = await freshCode(station, rp);
    const responses = await Promise.all([0, 1, 2, 3].map(async () => exchange(rp, code)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
    for (const response of responses.filter((r) => r.status !== 200)) expectOAuthError(response, 'invalid_grant', 400);
  });

  it('answers server_error without tokens while the store cannot take writes, and recovers after', async () => {
    const code = await freshCode(station, rp);
    // Another connection holding the write lock past the station's busy timeout: the assertion's jti cannot be
    // recorded, so the ID token already made must not leave.
    const lock = await holdWriteLock(join(station.dataDir, 'station.sqlite'), 5_500);
    try {
      const refused = await exchange(rp, code);
      expect(refused.status).toBe(500);
      expect(refused.body).toEqual({ error: 'server_error', error_description: expect.any(String) });
    } finally {
      await lock.released;
    }
    const next = await exchange(rp, await freshCode(station, rp));
    expect(next.status).toBe(200);
    expect(typeof next.body.id_token).toBe('string');
  }, 30_000);
});
