import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../src/station/http/create-http-server.js';

function server() {
  return createHttpServer({
    logger: pino({ level: 'silent' }),
    allowedHosts: () => new Set(['127.0.0.1:47002']),
    stationOrigin: () => 'http://127.0.0.1:47002',
    clients: { find: async () => undefined, allOrigins: async () => new Set<string>() },
    isUiSession: () => false,
  });
}

// Routes validate with zod; Fastify's ajv and fast-json-stringify compilers are never loaded (README, Start-up).
describe('the HTTP server and Fastify JSON schemas', () => {
  it('refuses a route that declares a body or response schema when it is registered, instead of leaving it unvalidated', async () => {
    for (const schema of [{ body: { type: 'object' } }, { response: { 200: { type: 'object' } } }]) {
      const app = server();
      app.post('/x', { schema }, async () => ({}));
      await expect(app.ready()).rejects.toThrow(/validate with zod/);
      await app.close();
    }
  });

  it('serves routes without schemas, answering JSON', async () => {
    const app = server();
    app.get('/x', async () => ({ ok: true }));
    const reply = await app.inject({ method: 'GET', url: '/x', headers: { host: '127.0.0.1:47002' } });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ ok: true });
    await app.close();
  });
});
