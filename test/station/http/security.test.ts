import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startTestStation, type TestStation } from '../../support/test-station.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP so the test controls Host and Origin exactly (fetch would not let it forge Host). */
function send(station: TestStation, path: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  const url = new URL(station.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers: { host: url.host, ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

async function uiSessionCookie(station: TestStation): Promise<string> {
  const launch = new URL(station.uiUrl());
  const response = await send(station, `${launch.pathname}${launch.search}`);
  expect(response.status).toBe(303);
  const cookie = String(response.headers['set-cookie']).split(';')[0]!;
  return cookie;
}

describe('local server safety', () => {
  let station: TestStation;
  beforeAll(async () => {
    station = await startTestStation();
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'], redirectUris: [] });
  });
  afterAll(() => station.dispose());

  it('listens on 127.0.0.1 only', () => {
    expect(station.http.server.address()).toMatchObject({ address: '127.0.0.1' });
  });

  it('serves its own Host', async () => {
    expect((await send(station, '/api/health')).status).toBe(200);
    expect((await send(station, '/api/health', { headers: { host: `localhost:${new URL(station.baseUrl).port}` } })).status).toBe(200);
  });

  it('refuses a forged Host (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${new URL(station.baseUrl).port}`, '127.0.0.1:1']) {
      const response = await send(station, '/api/health', { headers: { host } });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ status: 'error', code: 'ERR_HTTP_HOST_FORBIDDEN' });
    }
  });

  it('refuses a state-changing call from a foreign Origin even with a valid UI session', async () => {
    const cookie = await uiSessionCookie(station);
    const body = JSON.stringify({ registration: { clientId: 'evil' } });
    const foreign = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json' },
      body,
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).code).toBe('ERR_HTTP_ORIGIN_FORBIDDEN');
    expect(await station.data.clients.find('evil')).toBeUndefined();

    const own = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { cookie, origin: station.baseUrl, 'content-type': 'application/json' },
      body,
    });
    expect(own.status).toBe(201);
    await station.data.clients.remove('evil');
  });

  it('never answers CORS with a wildcard, and refuses preflights from unregistered origins', async () => {
    const refused = await send(station, '/admin/api/clients', {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();

    const allowed = await send(station, '/admin/api/clients', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(allowed.headers.vary).toContain('Origin');
  });

  it('lets the published browser client preflight its headers and read credentialed answers', async () => {
    const preflight = await send(station, '/api/identity/v2/start', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,accept,cache-control' },
    });
    expect(preflight.status).toBe(204);
    const allowedHeaders = String(preflight.headers['access-control-allow-headers']).split(/,\s*/);
    expect(allowedHeaders).toEqual(expect.arrayContaining(['content-type', 'accept', 'cache-control']));
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(preflight.headers['access-control-allow-origin']).toBe('https://shop.example');
  });

  it('requires the UI session for the station UI and its API', async () => {
    const page = await send(station, '/ui/');
    expect(page.status).toBe(401);
    expect(JSON.parse(page.body).code).toBe('ERR_UI_SESSION_REQUIRED');
    const api = await send(station, '/admin/api/overview');
    expect(api.status).toBe(401);
    const forged = await send(station, '/admin/api/overview', { headers: { cookie: `station_session_${new URL(station.baseUrl).port}=forged` } });
    expect(forged.status).toBe(401);
  });

  it('accepts a launch token once only', async () => {
    const launch = new URL(station.uiUrl());
    expect((await send(station, `${launch.pathname}${launch.search}`)).status).toBe(303);
    const again = await send(station, `${launch.pathname}${launch.search}`);
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body).code).toBe('ERR_UI_TOKEN_INVALID');
  });

  it('gives a session that opens the overview', async () => {
    const cookie = await uiSessionCookie(station);
    const response = await send(station, '/admin/api/overview', { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ station: { mode: 'sandbox' }, tokens: [], clients: [{ clientId: 'shop' }] });
  });

  it('refuses an oversize body with 413 and changes nothing', async () => {
    const cookie = await uiSessionCookie(station);
    const huge = JSON.stringify({ registration: { clientId: 'big', redirectUris: ['https://x.example/'.padEnd(2 * 1024 * 1024, 'a')] } });
    const response = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { cookie, origin: station.baseUrl, 'content-type': 'application/json' },
      body: huge,
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).code).toBe('ERR_HTTP_BODY_TOO_LARGE');
    expect(await station.data.clients.find('big')).toBeUndefined();
  });

  it('answers bad input in the interface’s JSON error format', async () => {
    const cookie = await uiSessionCookie(station);
    const response = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { cookie, origin: station.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ registration: { clientId: 'bad id!', allowedOrigins: ['https://x.example/path'] } }),
    });
    expect(response.status).toBe(400);
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({ status: 'error', code: 'ERR_INPUT_INVALID' });
    expect(Object.keys(body.errors)).toEqual(expect.arrayContaining(['registration.clientId', 'registration.allowedOrigins.0']));
    const notJson = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { cookie, origin: station.baseUrl, 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).status).toBe('error');
  });

  it('sends security headers and refuses framing', async () => {
    const response = await send(station, '/api/health');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers unknown paths with a JSON 404', async () => {
    const response = await send(station, '/nope');
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'error', code: 'ERR_HTTP_NOT_FOUND' });
  });
});
