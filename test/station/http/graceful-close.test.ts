import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../src/station/http/create-http-server.js';
import { keepAliveClients } from '../../support/http/keep-alive-client.js';

async function startServer(): Promise<{ app: FastifyInstance; port: number; host: string; release: () => void; slowStarted: () => boolean }> {
  let port = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let slow = false;
  const app = createHttpServer({
    logger: pino({ level: 'silent' }),
    allowedHosts: () => new Set([`127.0.0.1:${port}`]),
    isUiSession: () => false,
    clients: { find: async () => undefined, allOrigins: async () => new Set<string>() },
  });
  app.get('/fast', async () => ({ status: 'OK' }));
  app.get('/slow', async () => {
    slow = true;
    await released;
    return { status: 'slow OK' };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
  return { app, port, host: `127.0.0.1:${port}`, release, slowStarted: () => slow };
}

describe('closing the HTTP server under load (SIGTERM, SIGINT and quitting the app all close it)', () => {
  it('answers what is in flight with Connection: close, tells 64 keep-alive clients 503 with Connection: close, resets none, and ends within 5 s', async () => {
    const { app, port, host, release, slowStarted } = await startServer();
    const clients = keepAliveClients(port, host, '/fast', 64);
    const slow = fetch(`http://${host}/slow`).then(async (response) => ({
      status: response.status,
      connection: response.headers.get('connection'),
      body: await response.json(),
    }));
    await expect.poll(() => clients.tally.answered > 640 && slowStarted(), { timeout: 20_000 }).toBe(true);

    const started = performance.now();
    const closed = app.close();
    // The request in flight finishes while the server drains: once the others are being told 503.
    await expect.poll(() => clients.tally.unavailable > 0, { timeout: 4000 }).toBe(true);
    release();
    await closed;
    const closeMs = performance.now() - started;
    await clients.ended;

    expect(await slow).toEqual({ status: 200, connection: 'close', body: { status: 'slow OK' } });
    expect(clients.tally.resets).toEqual([]);
    expect(clients.tally.unavailable).toBeGreaterThan(0);
    expect(closeMs).toBeLessThan(5000);
    expect(app.server.listening).toBe(false);
  });

  it('bounds the close: a connection that never ends (a stream nobody closed) is cut at the limit', async () => {
    const { app, host, slowStarted, release } = await startServer();
    const stuck = fetch(`http://${host}/slow`).catch((error: unknown) => error);
    await expect.poll(slowStarted).toBe(true);
    const started = performance.now();
    await app.close();
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await stuck).toBeInstanceOf(Error);
    release();
  });
});
