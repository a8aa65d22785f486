import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { identityApi, postJson } from '../../support/oidc/oidc-identity-api.js';

const SECRET = 'integrator-secret-0123456789';

describe('identity start/complete API (sandbox mode)', () => {
  let station: OidcTestStation;
  let api: ReturnType<typeof identityApi>;
  beforeAll(async () => {
    station = await startOidcTestStation();
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'] }, new TextEncoder().encode(SECRET));
    await station.data.clients.upsert({ clientId: 'other' }, new TextEncoder().encode('other-secret-0123456789'));
    api = identityApi(station.baseUrl, 'shop', SECRET);
  });
  afterAll(() => station?.dispose());

  it('Smart-ID: start returns a 4-digit challenge and a token; complete answers RUNNING, then OK once', async () => {
    const started = await api.start('smartid', { idcode: '30303039914', country: 'EE', method: 'smartid', lang: 'en' });
    expect(started.status).toBe(200);
    expect(started.body.challenge).toMatch(/^\d{4}$/);
    expect(typeof started.body.token).toBe('string');
    const token = String(started.body.token);

    const running = await api.complete('smartid', token, 0);
    expect(running).toEqual({ status: 200, body: { status: 'RUNNING' } });

    const done = await api.complete('smartid', token, 2);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      status: 'OK',
      idcode: '30303039914',
      firstname: 'OK',
      lastname: 'TESTNUMBER',
      country: 'EE',
      birth_date: '1903-03-03',
      current_login_method: 'smartid',
    });

    const again = await api.complete('smartid', token, 0);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_SESSION_NOT_FOUND' });
  });

  it('Smart-ID: takes the simulated user’s time (RUNNING until then)', async () => {
    const started = await api.start('smartid', { idcode: '30303039914', country: 'EE' });
    const t0 = Date.now();
    const done = await api.complete('smartid', String(started.body.token), 5);
    expect(done.body.status).toBe('OK');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
  });

  it('Smart-ID: a refusing user ends in an error body, never status OK', async () => {
    const started = await api.start('smartid', { idcode: '30403039917', country: 'EE' });
    const done = await api.complete('smartid', String(started.body.token), 3);
    expect(done.status).toBe(400);
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_USER_REFUSED' });
  });

  it('Smart-ID: a user who never answers times out', async () => {
    const started = await api.start('smartid', { idcode: '30403039928', country: 'EE' });
    expect((await api.complete('smartid', String(started.body.token), 0)).body.status).toBe('RUNNING');
    const done = await api.complete('smartid', String(started.body.token), 3);
    expect(done.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_TIMEOUT', retriable: true });
  });

  it('Smart-ID: an account the sandbox does not know is refused at start', async () => {
    const started = await api.start('smartid', { idcode: '39999999999', country: 'EE' });
    expect(started.status).toBe(404);
    expect(started.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_ACCOUNT_NOT_FOUND' });
    const missing = await api.start('smartid', {});
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 'error', code: 'ERR_INPUT_INVALID', errors: { idcode: ['required'] } });
  });

  it('Mobile-ID: phone and idcode must belong together; the pair logs in', async () => {
    const mismatch = await api.start('mid-login', { idcode: '60001019906', phone: '+37200000266' });
    expect(mismatch.status).toBe(404);
    expect(mismatch.body).toMatchObject({ code: 'ERR_IDENTITY_NOT_MID_CLIENT' });
    const badPhone = await api.start('mid-login', { idcode: '60001019906', phone: '5551234' });
    expect(badPhone.status).toBe(400);

    const started = await api.start('mid-login', { idcode: '60001019906', phone: '+37200000766', country: 'EE' });
    expect(started.body.challenge).toMatch(/^\d{4}$/);
    const done = await api.complete('mid-login', String(started.body.token), 3);
    expect(done.body).toMatchObject({ status: 'OK', idcode: '60001019906', firstname: 'MARY ÄNN', current_login_method: 'mid-login' });
  });

  it('EUDI wallet: start gives the presentation request, complete returns the PID with verified_claims', async () => {
    const started = await api.start('at-eudi-wallet-login', { country: 'AT' });
    expect(String(started.body.qr_code)).toMatch(/^openid4vp:\/\//);
    const done = await api.complete('at-eudi-wallet-login', String(started.body.token), 3);
    expect(done.body).toMatchObject({
      status: 'OK',
      firstname: 'ERIKA',
      lastname: 'MUSTERFRAU',
      country: 'AT',
      birth_date: '1964-08-12',
      current_login_method: 'at-eudi-wallet-login',
      verified_claims: { verification: { trust_framework: 'eidas' }, claims: { family_name: 'Musterfrau' } },
    });
  });

  it('refuses a wrong secret, a body client_id other than the path’s, and an unknown client', async () => {
    const url = `${station.baseUrl}/api/identity/shop/smartid/start`;
    for (const body of [
      { client_id: 'shop', secret: 'wrong-secret-0123456789', idcode: '30303039914' },
      { client_id: 'other', secret: 'other-secret-0123456789', idcode: '30303039914' },
    ]) {
      const response = await postJson(url, body);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_CLIENT_UNAUTHENTICATED' });
    }
    const unknown = await postJson(`${station.baseUrl}/api/identity/nobody/smartid/start`, { client_id: 'nobody', secret: SECRET });
    expect(unknown.status).toBe(401);
    const missing = await postJson(url, { client_id: 'shop', idcode: '30303039914' });
    expect(missing.status).toBe(400);
  });

  it('a token is bound to its client and method', async () => {
    const started = await api.start('smartid', { idcode: '30303039914', country: 'EE' });
    const token = String(started.body.token);
    const otherClient = await identityApi(station.baseUrl, 'other', 'other-secret-0123456789').complete('smartid', token, 0);
    expect(otherClient.status).toBe(404);
    const otherMethod = await api.complete('mid-login', token, 0);
    expect(otherMethod.status).toBe(404);
    expect((await api.complete('smartid', token, 3)).body.status).toBe('OK');
  });

  it('refuses an unknown method', async () => {
    const response = await api.start('no-such-method', {});
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: 'ERR_IDENTITY_METHOD_UNKNOWN' });
  });

  it('is server to server: a browser Origin is refused, even a registered one', async () => {
    const response = await postJson(`${station.baseUrl}/api/identity/shop/smartid/start`, { client_id: 'shop', secret: SECRET, idcode: '30303039914' }, { origin: 'https://shop.example' });
    expect(response.status).toBe(403);
  });
});

describe('identity API in production mode', () => {
  it('refuses sandbox simulators and still offers the local token method', async () => {
    const station = await startOidcTestStation({ config: { mode: 'production' } });
    try {
      await station.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
      const api = identityApi(station.baseUrl, 'shop', SECRET);
      for (const method of ['smartid', 'mid-login', 'at-eudi-wallet-login']) {
        const response = await api.start(method, { idcode: '30303039914', phone: '+37200000766' });
        expect(response.status).toBe(403);
        expect(response.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_SANDBOX_ONLY' });
      }
      const local = await api.start('local-token-login', {});
      expect(local.status).toBe(409);
      expect(local.body).toMatchObject({ code: 'ERR_IDENTITY_NO_AUTH_CERTIFICATE', retriable: true });
    } finally {
      await station.dispose();
    }
  });
});
