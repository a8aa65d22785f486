import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type IncomingMessage } from 'node:http';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';

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

/** Redeems a launch token the way the UI page does (own Origin); answers the raw exchange. */
function redeem(station: TestStation, launchToken: string, origin = station.baseUrl): Promise<RawResponse> {
  return send(station, '/admin/api/session', {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify({ launchToken }),
  });
}

function launchTokenOf(uiUrl: string): string {
  return new URLSearchParams(new URL(uiUrl).hash.slice(1)).get('launch')!;
}

async function uiAuthorization(station: TestStation): Promise<string> {
  const response = await redeem(station, launchTokenOf(station.uiUrl()));
  expect(response.status).toBe(200);
  return `Bearer ${JSON.parse(response.body).credential}`;
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
    const authorization = await uiAuthorization(station);
    const body = JSON.stringify({ registration: { clientId: 'evil' } });
    const foreign = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { authorization, origin: 'https://evil.example', 'content-type': 'application/json' },
      body,
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).code).toBe('ERR_HTTP_ORIGIN_FORBIDDEN');
    expect(await station.data.clients.find('evil')).toBeUndefined();

    const own = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { authorization, origin: station.baseUrl, 'content-type': 'application/json' },
      body,
    });
    expect(own.status).toBe(201);
    await station.data.clients.remove('evil');
  });

  it('answers 400 naming the field for an origin or address that is not one, and saves nothing', async () => {
    const authorization = await uiAuthorization(station);
    const body = JSON.stringify({ registration: { clientId: 'typo', allowedOrigins: ['app.example'], allowedIps: ['999.1.1.1'] } });
    const response = await send(station, '/admin/api/clients', { method: 'POST', headers: { authorization, origin: station.baseUrl, 'content-type': 'application/json' }, body });
    expect(response.status).toBe(400);
    const answer = JSON.parse(response.body) as { code: string; errors: Record<string, string[]> };
    expect(answer.code).toBe('ERR_INPUT_INVALID');
    expect(Object.keys(answer.errors ?? {})).toEqual(expect.arrayContaining([expect.stringContaining('allowedOrigins.0'), expect.stringContaining('allowedIps.0')]));
    expect(await station.data.clients.find('typo')).toBeUndefined();
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

  it('serves only the UI build under /ui/: its assets with their type, nothing outside it or hidden', async () => {
    const page = await send(station, '/ui/');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(page.body)![1]!;
    const asset = await send(station, `/ui/${script}`);
    expect([asset.status, asset.headers['content-type']]).toEqual([200, expect.stringMatching(/javascript/)]);
    expect(asset.headers['content-security-policy']).toContain("script-src 'self'");
    for (const path of ['/ui/../package.json', '/ui/%2e%2e/package.json', '/ui/..%2f..%2fpackage.json', '/ui/.hidden', '/ui/missing.js']) {
      const response = await send(station, path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.body).not.toContain('"name": "signing-station"');
    }
  });

  it('serves the UI files to anyone but its API only with the UI credential', async () => {
    expect((await send(station, '/ui/')).status).toBe(200);
    const api = await send(station, '/admin/api/overview', { headers: { origin: station.baseUrl } });
    expect(api.status).toBe(401);
    expect(JSON.parse(api.body).code).toBe('ERR_UI_SESSION_REQUIRED');
    const forged = await send(station, '/admin/api/overview', { headers: { origin: station.baseUrl, authorization: 'Bearer forgedforgedforgedforged' } });
    expect(forged.status).toBe(401);
  });

  it('puts the launch token in the fragment and sets no cookie anywhere in the UI flow', async () => {
    const uiUrl = station.uiUrl();
    expect(new URL(uiUrl).search).toBe('');
    expect(launchTokenOf(uiUrl)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const page = await send(station, '/ui/');
    const exchange = await redeem(station, launchTokenOf(uiUrl));
    expect(exchange.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(exchange.headers['set-cookie']).toBeUndefined();
  });

  it('accepts a launch token once only', async () => {
    const token = launchTokenOf(station.uiUrl());
    expect((await redeem(station, token)).status).toBe(200);
    const again = await redeem(station, token);
    expect(again.status).toBe(401);
    expect(JSON.parse(again.body).code).toBe('ERR_UI_TOKEN_INVALID');
  });

  it('lets no other origin or port redeem a launch token, and the refused attempt does not use it up', async () => {
    const token = launchTokenOf(station.uiUrl());
    const otherPort = `http://127.0.0.1:${Number(new URL(station.baseUrl).port) + 1}`;
    for (const origin of [otherPort, 'https://evil.example']) {
      const refused = await redeem(station, token, origin);
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).code).toBe('ERR_HTTP_ORIGIN_FORBIDDEN');
    }
    const noOrigin = await send(station, '/admin/api/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ launchToken: token }) });
    expect(noOrigin.status).toBe(403);
    expect((await redeem(station, token)).status).toBe(200);
  });

  it('refuses a replayed credential without the station’s Origin (another local process, curl)', async () => {
    const authorization = await uiAuthorization(station);
    const body = JSON.stringify({ registration: { clientId: 'replayed' } });
    const post = await send(station, '/admin/api/clients', { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body });
    expect(post.status).toBe(403);
    expect(JSON.parse(post.body).code).toBe('ERR_HTTP_ORIGIN_FORBIDDEN');
    expect(await station.data.clients.find('replayed')).toBeUndefined();
    expect((await send(station, '/admin/api/audit', { headers: { authorization } })).status).toBe(403);
    expect((await send(station, '/admin/api/audit', { headers: { authorization, 'sec-fetch-site': 'same-site' } })).status).toBe(403);
  });

  it('answers the station page’s own same-origin reads, which browsers send without Origin', async () => {
    const authorization = await uiAuthorization(station);
    const response = await send(station, '/admin/api/overview', { headers: { authorization, 'sec-fetch-site': 'same-origin' } });
    expect(response.status).toBe(200);
  });

  it('gives a credential that opens the overview', async () => {
    const authorization = await uiAuthorization(station);
    const response = await send(station, '/admin/api/overview', { headers: { authorization, origin: station.baseUrl } });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ station: { mode: 'sandbox' }, tokens: [], clients: [{ clientId: 'shop' }] });
  });

  it('refuses an oversize body with 413 and changes nothing', async () => {
    const authorization = await uiAuthorization(station);
    const huge = JSON.stringify({ registration: { clientId: 'big', redirectUris: ['https://x.example/'.padEnd(2 * 1024 * 1024, 'a')] } });
    const response = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { authorization, origin: station.baseUrl, 'content-type': 'application/json' },
      body: huge,
    });
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).code).toBe('ERR_HTTP_BODY_TOO_LARGE');
    expect(await station.data.clients.find('big')).toBeUndefined();
  });

  it('answers bad input in the interface’s JSON error format', async () => {
    const authorization = await uiAuthorization(station);
    const response = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { authorization, origin: station.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ registration: { clientId: 'bad id!', allowedOrigins: ['https://x.example/path'] } }),
    });
    expect(response.status).toBe(400);
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({ status: 'error', code: 'ERR_INPUT_INVALID' });
    expect(Object.keys(body.errors)).toEqual(expect.arrayContaining(['registration.clientId', 'registration.allowedOrigins.0']));
    const notJson = await send(station, '/admin/api/clients', {
      method: 'POST',
      headers: { authorization, origin: station.baseUrl, 'content-type': 'application/json' },
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

  it('sends them too on the answers routes write themselves: the OIDC provider’s and the window’s event stream', async () => {
    const discovery = await send(station, '/.well-known/openid-configuration');
    expect(discovery.status).toBe(200);
    expect(discovery.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer', 'cross-origin-opener-policy': 'same-origin' });
    expect(discovery.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const url = new URL(station.baseUrl);
    const headers = { host: url.host, origin: station.baseUrl, authorization: await uiAuthorization(station) };
    const stream = await new Promise<IncomingMessage>((resolve, reject) =>
      request({ host: url.hostname, port: url.port, path: '/admin/api/events', headers }, resolve).on('error', reject).end(),
    );
    stream.destroy();
    expect(stream.statusCode).toBe(200);
    expect(stream.headers).toMatchObject({ 'content-type': 'text/event-stream; charset=utf-8', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
    expect(stream.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('answers unknown paths with a JSON 404', async () => {
    const response = await send(station, '/nope');
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ status: 'error', code: 'ERR_HTTP_NOT_FOUND' });
  });
});
