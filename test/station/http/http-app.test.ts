import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandler } from '../../../src/station/http/install-error-handler.js';
import { textBodyParser } from '../../../src/station/http/server/body-parser.js';
import { HttpApp } from '../../../src/station/http/server/http-app.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over a real socket, with the body as given (a string array is sent chunked, without a length). */
function send(port: number, method: string, path: string, options: { headers?: Record<string, string>; body?: string | string[] } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, method, path, headers: options.headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    for (const chunk of [options.body ?? []].flat()) request.write(chunk);
    request.end();
  });
}

const json = (body: unknown): { headers: Record<string, string>; body: string } => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('HttpApp: the station’s HTTP server (src/station/http/server)', () => {
  const app = new HttpApp({ logger: pino({ level: 'silent' }), bodyLimit: 64 });
  const calls: string[] = [];
  let port: number;
  let closedHooks = 0;

  beforeAll(async () => {
    installErrorHandler(app);
    app.addHook('onRequest', () => void calls.push('root onRequest'));
    app.addHook('onSend', (_request, reply) => void reply.header('x-root', 'yes'));
    app.addHook('preClose', async () => void closedHooks++);
    await app.register(
      async (scope) => {
        scope.addHook('onRequest', (request) => {
          calls.push('scope onRequest');
          if (request.headers['x-refuse'] !== undefined) throw new Error('refused by a hook');
        });
        scope.addHook('preHandler', () => void calls.push('scope preHandler'));
        scope.addBodyParser('application/x-www-form-urlencoded', { ...textBodyParser, limit: 8 });
        scope.get('/items/static', async () => 'static');
        scope.get('/items/:id', async (request) => ({ id: request.params.id }));
        scope.get('/items/*', async (request) => ({ rest: request.params['*'] }));
        scope.post('/echo', { onRequest: () => void calls.push('route onRequest') }, async (request) => {
          calls.push('handler');
          return { body: request.body };
        });
        scope.post('/big', { bodyLimit: 1024 }, async (request) => ({ length: (request.body as string).length }));
        scope.get('/nothing', async () => undefined);
        scope.get('/stream', async (_request, reply) => reply.type('text/plain').send(Readable.from(['a', 'b', 'c'])));
        await scope.register(async (inner) => {
          inner.removeAllBodyParsers();
          inner.addBodyParser('application/octet-stream', {});
          inner.post('/bytes', async (request) => ({ isBuffer: Buffer.isBuffer(request.body) }));
        });
      },
      { prefix: '/api' },
    );
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it('routes a literal segment before a parameter before a wildcard, decoding parameters, and folds nothing', async () => {
    expect((await send(port, 'GET', '/api/items/static')).body).toBe('static');
    expect(JSON.parse((await send(port, 'GET', '/api/items/a%20b')).body)).toEqual({ id: 'a b' });
    expect(JSON.parse((await send(port, 'GET', '/api/items/a/b/c')).body)).toEqual({ rest: 'a/b/c' });
    expect((await send(port, 'GET', '/api/items/static/')).status).toBe(200); // the wildcard's, with rest ''
    expect((await send(port, 'GET', '/API/items/static')).status).toBe(404);
    expect(JSON.parse((await send(port, 'GET', '/api/items/%E0%A4%A')).body)).toMatchObject({ status: 'error', code: 'ERR_HTTP_BAD_REQUEST' });
    expect((await send(port, 'POST', '/api/items/static')).status).toBe(404);
  });

  it('answers HEAD from the GET route, headers without a body', async () => {
    const head = await send(port, 'HEAD', '/api/items/static');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe('6');
  });

  it('runs outer onRequest hooks, then the scope’s, the route’s own, the body, preHandler and the handler', async () => {
    calls.length = 0;
    const answer = await send(port, 'POST', '/api/echo', json({ a: 1 }));
    expect(JSON.parse(answer.body)).toEqual({ body: { a: 1 } });
    expect(calls).toEqual(['root onRequest', 'scope onRequest', 'route onRequest', 'scope preHandler', 'handler']);
    expect(answer.headers['x-root']).toBe('yes');
  });

  it('stops at a hook that throws, before the body is read, and still runs the onSend hooks on the error', async () => {
    calls.length = 0;
    const answer = await send(port, 'POST', '/api/echo', { headers: { ...json({}).headers, 'x-refuse': '1' }, body: '{}' });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'error', code: 'ERR_INTERNAL' });
    expect(answer.body).not.toContain('refused by a hook');
    expect(answer.headers['x-root']).toBe('yes');
    expect(calls).toEqual(['root onRequest', 'scope onRequest']);
  });

  it('refuses JSON that reaches for a prototype, and an empty JSON body, with 400 before the handler', async () => {
    calls.length = 0;
    const poisoned = await send(port, 'POST', '/api/echo', { headers: json({}).headers, body: '{"__proto__":{"admin":true}}' });
    expect(poisoned.status).toBe(400);
    expect(JSON.parse(poisoned.body)).toMatchObject({ code: 'ERR_INPUT_INVALID' });
    expect((await send(port, 'POST', '/api/echo', { headers: json({}).headers, body: '' })).status).toBe(400);
    expect(calls).not.toContain('handler');
  });

  it('reads only the media types its scope parses: 415 otherwise, and a scope may keep only its own', async () => {
    expect((await send(port, 'POST', '/api/echo', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' })).body).toBe('{"body":"a=1"}');
    expect((await send(port, 'POST', '/api/echo', { headers: { 'content-type': 'application/xml' }, body: '<a/>' })).status).toBe(415);
    expect((await send(port, 'POST', '/api/echo', { body: 'no type' })).status).toBe(415);
    expect((await send(port, 'POST', '/api/bytes', json({ a: 1 }))).status).toBe(415);
    expect(JSON.parse((await send(port, 'POST', '/api/bytes', { headers: { 'content-type': 'application/octet-stream' }, body: 'xyz' })).body)).toEqual({ isBuffer: true });
  });

  it('refuses a body over the limit with 413: by its Content-Length before reading, or while reading a chunked one', async () => {
    calls.length = 0;
    const declared = await send(port, 'POST', '/api/echo', json({ text: 'x'.repeat(100) }));
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ code: 'ERR_HTTP_BODY_TOO_LARGE' });
    const chunked = await send(port, 'POST', '/api/echo', { headers: json({}).headers, body: ['{"text":"', 'x'.repeat(40), 'x'.repeat(40), '"}'] });
    expect(chunked.status).toBe(413);
    expect((await send(port, 'POST', '/api/echo', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=123456789' })).status).toBe(413);
    expect(calls).not.toContain('handler');
    expect(JSON.parse((await send(port, 'POST', '/api/big', json('x'.repeat(500)))).body)).toEqual({ length: 500 });
  });

  it('answers a handler that neither answered nor returned anything with a 500, not a hung request', async () => {
    expect((await send(port, 'GET', '/api/nothing')).status).toBe(500);
  });

  it('pipes a stream with the headers set before it', async () => {
    const answer = await send(port, 'GET', '/api/stream');
    expect(answer).toMatchObject({ status: 200, body: 'abc' });
    expect(answer.headers['x-root']).toBe('yes');
  });

  it('answers unknown paths through the root hooks with the not-found handler', async () => {
    calls.length = 0;
    expect((await send(port, 'GET', '/nowhere')).status).toBe(404);
    expect(calls).toEqual(['root onRequest']);
  });

  it('runs the preClose hooks once, however often it is closed', async () => {
    const other = new HttpApp({ logger: pino({ level: 'silent' }), bodyLimit: 64 });
    let runs = 0;
    other.addHook('preClose', async () => void runs++);
    await other.listen({ host: '127.0.0.1', port: 0 });
    await Promise.all([other.close(), other.close()]);
    expect(runs).toBe(1);
    expect(other.server.listening).toBe(false);
    expect(closedHooks).toBe(0);
  });
});
