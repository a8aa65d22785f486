import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StationError } from '../../../src/core/errors/station-error.js';
import { createHttpServer } from '../../../src/station/http/create-http-server.js';
import { readTimestampReply } from '../../../src/station/tsa/timestamp-reply-reader.js';
import { closedByServer, openRequest, rawRequest, requestHead } from '../../support/http/raw-http.js';

const CAP = 4096;

/** The station's server with its guards, a few routes of each kind, and a body budget small enough to fill. */
describe('the station’s HTTP server (create-http-server.ts)', () => {
  let app: FastifyInstance;
  let port: number;
  let host: string;
  const handled: string[] = [];
  /** Requests past every station hook (admitted), in order. */
  const arrived: string[] = [];

  beforeAll(async () => {
    app = createHttpServer({
      logger: pino({ level: 'silent' }),
      allowedHosts: () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]),
      isUiSession: () => false,
      clients: { find: async () => undefined, allOrigins: async () => new Set(['https://shop.example']) },
      bodyMemoryCap: CAP,
    });
    await app.register(
      async (scope) => {
        scope.get('/static', async () => 'static');
        scope.post('/echo', async (request) => (handled.push('echo'), { body: request.body }));
        scope.post('/big', { bodyLimit: 3 * CAP }, async (request) => ({ length: JSON.stringify(request.body).length }));
        scope.post('/own', { config: { requiresOwnOrigin: true } }, async () => 'own');
        scope.post('/oauth', { config: { errorFormat: 'oauth', browserAccess: 'none' } }, async () => {
          throw new StationError('ERR_INPUT_INVALID', 'bad grant', { status: 400 });
        });
        const refuse = async (): Promise<void> => {
          throw new StationError('ERR_TSA_FORBIDDEN', 'not from here', { status: 403 });
        };
        scope.post('/tsa', { config: { errorFormat: 'tsa', browserAccess: 'none' }, onRequest: refuse }, async () => 'never');
      },
      { prefix: '/api' },
    );
    app.addHook('onRequest', (request, _reply, done) => {
      arrived.push(request.url);
      done();
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
    host = `127.0.0.1:${port}`;
  });
  afterAll(() => app.close());

  const json = (body: Buffer): Record<string, unknown> => JSON.parse(body.toString('utf8')) as Record<string, unknown>;

  it('answers JSON with the station’s security headers, HEAD from the GET route, 404 in the station’s format', async () => {
    const ok = await rawRequest(port, requestHead('GET', '/api/static', { host }));
    expect(ok.body.toString()).toBe('static');
    expect(ok.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'cache-control': 'no-store' });
    const head = await rawRequest(port, requestHead('HEAD', '/api/static', { host }));
    expect(head).toMatchObject({ status: 200, body: Buffer.alloc(0) });
    expect(head.headers['content-length']).toBe('6');
    const missing = await rawRequest(port, requestHead('GET', '/nowhere', { host }));
    expect(missing.status).toBe(404);
    expect(json(missing.body)).toMatchObject({ status: 'error', code: 'ERR_HTTP_NOT_FOUND' });
    expect(missing.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('answers a path it lacks with a 404 a registered client’s page can read (CORS for its origin only)', async () => {
    const registered = await rawRequest(port, requestHead('GET', '/api/identity/shop/read-card-elsewhere', { host, origin: 'https://shop.example' }));
    expect(registered.status).toBe(404);
    expect(json(registered.body)).toMatchObject({ status: 'error', code: 'ERR_HTTP_NOT_FOUND' });
    expect(registered.headers).toMatchObject({ 'access-control-allow-origin': 'https://shop.example', vary: 'Origin' });
    const stranger = await rawRequest(port, requestHead('GET', '/api/identity/shop/read-card-elsewhere', { host, origin: 'https://stranger.example' }));
    expect(stranger.status).toBe(404);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses on the headers, before the body: Host, unknown route, foreign Origin, Content-Length over the limit', async () => {
    const declared = { 'content-type': 'application/json', 'content-length': 1000 }; // never sent
    const cases: Array<[Record<string, string | number>, string, number, string]> = [
      [{ host: 'evil.example', ...declared }, '/api/echo', 403, 'ERR_HTTP_HOST_FORBIDDEN'],
      [{ host, ...declared }, '/api/nothing-here', 404, 'ERR_HTTP_NOT_FOUND'],
      [{ host, origin: 'https://evil.example', ...declared }, '/api/echo', 403, 'ERR_HTTP_ORIGIN_FORBIDDEN'],
      [{ host, 'content-type': 'application/json', 'content-length': 2 * 1024 * 1024 }, '/api/echo', 413, 'ERR_HTTP_BODY_TOO_LARGE'],
    ];
    for (const [headers, path, status, code] of cases) {
      const answer = await rawRequest(port, requestHead('POST', path, headers));
      expect(answer.status, code).toBe(status);
      expect(json(answer.body)).toMatchObject({ code });
      // The body is never read: the connection is closed instead of waiting for it.
      expect(answer.headers.connection).toBe('close');
      await closedByServer(answer.socket);
    }
    expect(handled).toEqual([]);
  });

  it('refuses JSON reaching for a prototype, empty JSON and unknown media types, each with the station’s code', async () => {
    const post = (type: string, body: string) =>
      rawRequest(port, requestHead('POST', '/api/echo', { host, 'content-type': type, 'content-length': Buffer.byteLength(body) }), Buffer.from(body));
    expect(json((await post('application/json', '{"__proto__":{"admin":true}}')).body)).toMatchObject({ code: 'ERR_INPUT_INVALID' });
    expect(json((await post('application/json', '{"constructor":{"prototype":{"admin":true}}}')).body)).toMatchObject({ code: 'ERR_INPUT_INVALID' });
    expect(json((await post('application/json', '')).body)).toMatchObject({ code: 'ERR_INPUT_INVALID' });
    expect(json((await post('application/xml', '<a/>')).body)).toMatchObject({ code: 'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE' });
    expect(handled).toEqual([]);
    expect(json((await post('application/json', '{"a":1}')).body)).toEqual({ body: { a: 1 } });
  });

  it('accepts the localhost origin exactly where the localhost Host is served', async () => {
    const own = (origin: string) => rawRequest(port, requestHead('POST', '/api/own', { host, origin, 'content-length': 0 }));
    expect((await own(`http://localhost:${port}`)).status).toBe(200);
    expect((await own(`http://127.0.0.1:${port}`)).status).toBe(200);
    expect((await own(`http://localhost:${port + 1}`)).status).toBe(403);
    expect((await own(`https://localhost:${port}`)).status).toBe(403);
  });

  it('answers errors in the route’s format: OAuth, and the TSA’s rejection even for an error thrown in its hook', async () => {
    const oauth = await rawRequest(port, requestHead('POST', '/api/oauth', { host, 'content-length': 0 }));
    expect(json(oauth.body)).toEqual({ error: 'invalid_request', error_description: 'bad grant' });
    const tsa = await rawRequest(port, requestHead('POST', '/api/tsa', { host, 'content-type': 'application/octet-stream', 'content-length': 10 }));
    expect(tsa.status).toBe(403);
    expect(tsa.headers['content-type']).toBe('application/timestamp-reply');
    expect(readTimestampReply(tsa.body)).toMatchObject({ status: 2, failInfo: ['badRequest'], statusText: ['not from here (ERR_TSA_FORBIDDEN)'] });
  });

  it('holds at most the body budget at once: beyond it 503 with Retry-After, before reading; room again once answered', async () => {
    const head = (length: number) => requestHead('POST', '/api/big', { host, 'content-type': 'application/json', 'content-length': length });
    const body = Buffer.from(JSON.stringify('x'.repeat(3000)));
    // Alone, a body above the budget (but within its route's limit) is admitted.
    expect(json((await rawRequest(port, head(2 * CAP), Buffer.from(JSON.stringify('x'.repeat(2 * CAP - 2))))).body)).toEqual({ length: 2 * CAP });
    // One body of 3000 bytes declared and half sent holds its room...
    const admitted = arrived.length;
    const first = openRequest(port, head(body.length), body.subarray(0, 1500));
    await expect.poll(() => arrived.length).toBe(admitted + 1);
    const busy = await rawRequest(port, head(body.length), body);
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('2');
    expect(json(busy.body)).toMatchObject({ code: 'ERR_HTTP_BUSY', retriable: true });
    // A body over its route's limit is refused for what it is, never counted against the budget first.
    expect(json((await rawRequest(port, head(4 * CAP))).body)).toMatchObject({ code: 'ERR_HTTP_BODY_TOO_LARGE' });
    // ...until it is answered.
    first.socket.write(body.subarray(1500));
    expect(json((await first.answer).body)).toEqual({ length: body.length });
    expect(json((await rawRequest(port, head(body.length), body)).body)).toEqual({ length: body.length });
  });
});
