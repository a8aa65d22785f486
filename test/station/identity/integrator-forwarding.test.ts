import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { postJson } from '../../support/oidc/oidc-identity-api.js';

const SECRET = 'integrator-secret-0123456789';
const ORIGIN = 'https://shop.example';

async function pollFinish(baseUrl: string, clientId: string, token: string) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const finished = await postJson(`${baseUrl}/integrator/${clientId}/identity/finish`, { token, method: 'smartid', timeout: 2, lang: 'en' }, { origin: ORIGIN });
    if (finished.body.status !== 'RUNNING') return finished;
  }
  throw new Error('never finished');
}

describe('integrator-server role: forwarding to the embedded service', () => {
  let station: OidcTestStation;
  beforeAll(async () => {
    station = await startOidcTestStation();
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [ORIGIN] }, new TextEncoder().encode(SECRET));
    await station.data.clients.upsert({ clientId: 'nosecret', allowedOrigins: [ORIGIN] });
  });
  afterAll(() => station?.dispose());

  it('adds client_id and the vault secret; the browser gets the service’s answers and never the secret', async () => {
    const start = await fetch(`${station.baseUrl}/integrator/shop/identity/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      // What the browser client sends; a secret it might add is replaced, not trusted.
      body: JSON.stringify({ idcode: '30303039914', country: 'EE', method: 'smartid', lang: 'en', secret: 'browser-guess', client_id: 'other' }),
    });
    expect(start.status).toBe(200);
    expect(start.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const text = await start.text();
    expect(text).not.toContain(SECRET);
    const body = JSON.parse(text) as { challenge: string; token: string };
    expect(body.challenge).toMatch(/^\d{4}$/);

    const finished = await pollFinish(station.baseUrl, 'shop', body.token);
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ status: 'OK', idcode: '30303039914', current_login_method: 'smartid' });
    expect(JSON.stringify(finished.body)).not.toContain(SECRET);
  });

  it('passes the service’s error answers through unchanged', async () => {
    const start = await postJson(`${station.baseUrl}/integrator/shop/identity/start`, { idcode: '39999999999', country: 'EE', method: 'smartid' }, { origin: ORIGIN });
    expect(start.status).toBe(404);
    expect(start.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_ACCOUNT_NOT_FOUND' });
  });

  it('refuses an origin the client did not register', async () => {
    const start = await postJson(`${station.baseUrl}/integrator/shop/identity/start`, { idcode: '30303039914', method: 'smartid' }, { origin: 'https://evil.example' });
    expect(start.status).toBe(403);
  });

  it('refuses a request without Origin: no local process borrows the client’s secret', async () => {
    const start = await postJson(`${station.baseUrl}/integrator/shop/identity/start`, { idcode: '30303039914', country: 'EE', method: 'smartid' }, {});
    expect(start.status).toBe(403);
    expect(start.body).toMatchObject({ status: 'error', code: 'ERR_HTTP_ORIGIN_REQUIRED' });
  });

  it('says so when the client has no secret in the vault', async () => {
    const start = await postJson(`${station.baseUrl}/integrator/nosecret/identity/start`, { idcode: '30303039914', method: 'smartid' }, { origin: ORIGIN });
    expect(start.status).toBe(409);
    expect(start.body).toMatchObject({ code: 'ERR_INTEGRATOR_NO_SECRET' });
  });

  it('requires a method code', async () => {
    const start = await postJson(`${station.baseUrl}/integrator/shop/identity/start`, { idcode: '30303039914' }, { origin: ORIGIN });
    expect(start.status).toBe(400);
  });
});

describe('integrator-server role: forwarding to a remote service', () => {
  let remote: OidcTestStation;
  let local: OidcTestStation;
  beforeAll(async () => {
    remote = await startOidcTestStation();
    await remote.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
    // A production-mode station refuses simulators itself, but forwards to the (sandbox) remote service.
    local = await startOidcTestStation({ config: { mode: 'production', remoteServiceUrl: remote.baseUrl } });
    await local.data.clients.upsert({ clientId: 'shop', allowedOrigins: [ORIGIN] }, new TextEncoder().encode(SECRET));
  });
  afterAll(async () => {
    await local?.dispose();
    await remote?.dispose();
  });

  it('forwards start and finish to the configured base URL', async () => {
    const start = await postJson(`${local.baseUrl}/integrator/shop/identity/start`, { idcode: '30303039914', country: 'EE', method: 'smartid' }, { origin: ORIGIN });
    expect(start.status).toBe(200);
    const finished = await pollFinish(local.baseUrl, 'shop', String(start.body.token));
    expect(finished.body).toMatchObject({ status: 'OK', idcode: '30303039914' });
  });

  it('a wrong secret at the remote comes back as the remote’s error', async () => {
    await remote.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode('rotated-secret-0123456789'));
    const start = await postJson(`${local.baseUrl}/integrator/shop/identity/start`, { idcode: '30303039914', method: 'smartid' }, { origin: ORIGIN });
    expect(start.status).toBe(401);
    expect(start.body).toMatchObject({ status: 'error', code: 'ERR_IDENTITY_CLIENT_UNAUTHENTICATED' });
    await remote.data.clients.upsert({ clientId: 'shop' }, new TextEncoder().encode(SECRET));
  });

  it('an unreachable remote is a retriable 502', async () => {
    const offline = await startOidcTestStation({ config: { remoteServiceUrl: 'http://127.0.0.1:9' } });
    try {
      await offline.data.clients.upsert({ clientId: 'shop', allowedOrigins: [ORIGIN] }, new TextEncoder().encode(SECRET));
      const start = await postJson(`${offline.baseUrl}/integrator/shop/identity/start`, { idcode: '30303039914', method: 'smartid' }, { origin: ORIGIN });
      expect(start.status).toBe(502);
      expect(start.body).toMatchObject({ code: 'ERR_INTEGRATOR_SERVICE_UNREACHABLE', retriable: true });
    } finally {
      await offline.dispose();
    }
  });
});
