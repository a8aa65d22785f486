import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { x509 } from '../../../src/station/pki/x509.js';
import { installErrorHandler } from '../../../src/station/http/install-error-handler.js';
import { timestampRoutes, TSA_BODY_LIMIT } from '../../../src/station/tsa/timestamp-routes.js';
import { TsaClientAccess } from '../../../src/station/tsa/tsa-client-access.js';
import type { TimestampAuthority } from '../../../src/station/tsa/timestamp-authority.js';
import { readTimestampReply } from '../../../src/station/tsa/timestamp-reply-reader.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { postRaw, type RawResponse } from '../../support/tsa/tsa-http.js';
import { openssl } from '../../support/tsa/tsa-openssl.js';

const REPLY = 'application/timestamp-reply';
const QUERY_HEADERS = { 'content-type': 'application/octet-stream' };

/** A failure in the TSA's own format: the HTTP status, and a TimeStampResp rejection naming the station's code. */
function expectTsaRefusal(response: RawResponse, status: number, code: string): string {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe(REPLY);
  const reply = readTimestampReply(response.body);
  expect(reply).toMatchObject({ status: 2, failInfo: [status >= 500 ? 'systemFailure' : 'badRequest'] });
  expect(reply.statusText.join(' ')).toContain(`(${code})`);
  return reply.statusText.join(' ');
}

describe('POST /api/timestamp/:client_id on the station', () => {
  let station: TestStation;
  let dir: string;
  let query: Buffer;
  let queryPath: string;
  let rootPem: string;
  let url: (client: string) => string;

  beforeAll(async () => {
    station = await startTestStation();
    dir = station.dataDir;
    const clients = station.data.clients;
    await clients.upsert({ clientId: 'shop', allowedIps: ['127.0.0.2', '10.0.0.0/8'] });
    await clients.upsert({ clientId: 'range', allowedIps: ['127.0.0.0/30'] });
    await clients.upsert({ clientId: 'mapped', allowedIps: ['::ffff:127.0.0.3'] });
    await clients.upsert({ clientId: 'nobody', allowedIps: [] });
    url = (client) => `${station.baseUrl}/api/timestamp/${client}`;
    await writeFile(join(dir, 'data.bin'), randomBytes(1000));
    queryPath = join(dir, 'q.tsq');
    const made = await openssl(['ts', '-query', '-data', join(dir, 'data.bin'), '-sha256', '-cert', '-out', queryPath]);
    expect(made.code).toBe(0);
    query = await readFile(queryPath);
    rootPem = join(dir, 'root.pem');
    await writeFile(rootPem, new x509.X509Certificate(Uint8Array.from(station.tsa.certificates.at(-1)!)).toString('pem'));
  });
  afterAll(() => station.dispose());

  it('timestamps for an allowed caller; openssl verifies data and nonce', async () => {
    for (const contentType of ['application/octet-stream', 'application/timestamp-query']) {
      const response = await postRaw(url('shop'), query, { localAddress: '127.0.0.2', headers: { 'content-type': contentType } });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(REPLY);
      const reply = join(dir, 'r.tsr');
      await writeFile(reply, response.body);
      const verified = await openssl(['ts', '-verify', '-queryfile', queryPath, '-in', reply, '-CAfile', rootPem]);
      expect(verified.code, verified.stderr).toBe(0);
      const byData = await openssl(['ts', '-verify', '-data', join(dir, 'data.bin'), '-in', reply, '-CAfile', rootPem]);
      expect(byData.code, byData.stderr).toBe(0);
    }
  });

  it('refuses callers outside the allowed IPs with 403 in the TSA format, never a timestamp, whatever proxy headers say', async () => {
    const refused = await postRaw(url('shop'), query, { localAddress: '127.0.0.1', headers: QUERY_HEADERS });
    expectTsaRefusal(refused, 403, 'ERR_TSA_FORBIDDEN');
    const forged = await postRaw(url('shop'), query, {
      localAddress: '127.0.0.1',
      headers: { ...QUERY_HEADERS, 'x-forwarded-for': '127.0.0.2', forwarded: 'for=127.0.0.2', 'x-real-ip': '127.0.0.2' },
    });
    expectTsaRefusal(forged, 403, 'ERR_TSA_FORBIDDEN');
    expectTsaRefusal(await postRaw(url('nobody'), query, { localAddress: '127.0.0.2', headers: QUERY_HEADERS }), 403, 'ERR_TSA_FORBIDDEN');
  });

  it('matches CIDR ranges and IPv4-mapped entries', async () => {
    expect((await postRaw(url('range'), query, { localAddress: '127.0.0.3', headers: QUERY_HEADERS })).status).toBe(200);
    expectTsaRefusal(await postRaw(url('range'), query, { localAddress: '127.0.0.4', headers: QUERY_HEADERS }), 403, 'ERR_TSA_FORBIDDEN');
    expect((await postRaw(url('mapped'), query, { localAddress: '127.0.0.3', headers: QUERY_HEADERS })).status).toBe(200);
    expectTsaRefusal(await postRaw(url('mapped'), query, { localAddress: '127.0.0.2', headers: QUERY_HEADERS }), 403, 'ERR_TSA_FORBIDDEN');
  });

  it('applies a changed allow list within a second (the route caches it that long), and a removal too', async () => {
    const statusFrom = async (localAddress: string): Promise<number> => (await postRaw(url('changing'), query, { localAddress, headers: QUERY_HEADERS })).status;
    const withinASecond = { timeout: 1_500, interval: 100 };
    await station.data.clients.upsert({ clientId: 'changing', allowedIps: ['127.0.0.2'] });
    expect(await statusFrom('127.0.0.2')).toBe(200);
    await station.data.clients.upsert({ clientId: 'changing', allowedIps: ['127.0.0.9'] });
    await expect.poll(() => statusFrom('127.0.0.2'), withinASecond).toBe(403);
    expect(await statusFrom('127.0.0.9')).toBe(200);
    await station.data.clients.remove('changing');
    await expect.poll(() => statusFrom('127.0.0.9'), withinASecond).toBe(403);
    expectTsaRefusal(await postRaw(url('changing'), query, { localAddress: '127.0.0.9', headers: QUERY_HEADERS }), 403, 'ERR_TSA_FORBIDDEN');
  });

  it('answers an unknown client_id exactly as a known client called from a wrong address (no client enumeration)', async () => {
    await station.data.clients.upsert({ clientId: 'known', allowedIps: ['127.0.0.9'] });
    const unknown = await postRaw(url('unknown-client'), query, { localAddress: '127.0.0.2', headers: QUERY_HEADERS });
    const wrongAddress = await postRaw(url('known'), query, { localAddress: '127.0.0.2', headers: QUERY_HEADERS });
    const text = (said: string): string => said.replace(/unknown-client|known/g, 'ID');
    expect(text(expectTsaRefusal(unknown, 403, 'ERR_TSA_FORBIDDEN'))).toBe(text(expectTsaRefusal(wrongAddress, 403, 'ERR_TSA_FORBIDDEN')));
    await station.data.clients.remove('known');
  });

  it('answers transport mistakes in the TSA format too: wrong or missing Content-Type 415, oversize 413', async () => {
    for (const contentType of ['text/plain', 'application/json', 'application/x-www-form-urlencoded']) {
      const response = await postRaw(url('shop'), query, { localAddress: '127.0.0.2', headers: { 'content-type': contentType } });
      expectTsaRefusal(response, 415, 'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE');
    }
    expectTsaRefusal(await postRaw(url('shop'), query, { localAddress: '127.0.0.2' }), 415, 'ERR_HTTP_UNSUPPORTED_MEDIA_TYPE');
    const oversize = await postRaw(url('shop'), randomBytes(TSA_BODY_LIMIT + 1), { localAddress: '127.0.0.2', headers: QUERY_HEADERS });
    expectTsaRefusal(oversize, 413, 'ERR_HTTP_BODY_TOO_LARGE');
  });

  it('answers malformed and empty bodies with a PKIStatus rejection (badDataFormat), and keeps serving', async () => {
    for (const body of [Buffer.alloc(0), Buffer.from('hello'), query.subarray(0, 20), randomBytes(200)]) {
      const response = await postRaw(url('shop'), body, { localAddress: '127.0.0.2', headers: QUERY_HEADERS });
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe(REPLY);
      expect(readTimestampReply(response.body)).toMatchObject({ status: 2, failInfo: ['badDataFormat'] });
    }
    expect((await postRaw(url('shop'), query, { localAddress: '127.0.0.2', headers: QUERY_HEADERS })).status).toBe(200);
  });

  it('refuses browsers (any Origin) and the other methods', async () => {
    const fromPage = await postRaw(url('shop'), query, { localAddress: '127.0.0.2', headers: { ...QUERY_HEADERS, origin: 'https://shop.example' } });
    expectTsaRefusal(fromPage, 403, 'ERR_HTTP_ORIGIN_FORBIDDEN');
    const get = await postRaw(url('shop'), undefined, { localAddress: '127.0.0.2', method: 'GET' });
    expect(get.status).toBe(404);
  });
});

describe('timestampRoutes on a dual-stack listener (IPv6 and IPv4-mapped callers)', () => {
  let station: TestStation;
  let app: FastifyInstance;
  let port: number;
  let query: Buffer;

  beforeAll(async () => {
    station = await startTestStation();
    await station.data.clients.upsert({ clientId: 'v6', allowedIps: ['::1', '127.0.0.2'] });
    await station.data.clients.upsert({ clientId: 'v6net', allowedIps: ['::1/128'] });
    app = Fastify({ loggerInstance: pino({ level: 'silent' }) as FastifyBaseLogger });
    installErrorHandler(app);
    await app.register(timestampRoutes({ tsa: station.tsa, clients: station.data.clients }), { prefix: '/api' });
    await app.listen({ host: '::', port: 0 });
    port = (app.server.address() as { port: number }).port;
    const dataFile = join(station.dataDir, 'd.bin');
    await writeFile(dataFile, 'dual stack');
    const q = join(station.dataDir, 'q.tsq');
    expect((await openssl(['ts', '-query', '-data', dataFile, '-sha512', '-out', q])).code).toBe(0);
    query = await readFile(q);
  });
  afterAll(async () => {
    await app.close();
    await station.dispose();
  });

  it('serves ::1 and 127.0.0.2 (seen as ::ffff:127.0.0.2) when listed, refuses 127.0.0.1', async () => {
    const v6 = await postRaw(`http://[::1]:${port}/api/timestamp/v6`, query, { headers: QUERY_HEADERS });
    expect(v6.status).toBe(200);
    expect(readTimestampReply(v6.body).status).toBe(0);
    expect((await postRaw(`http://[::1]:${port}/api/timestamp/v6net`, query, { headers: QUERY_HEADERS })).status).toBe(200);
    const mapped = await postRaw(`http://127.0.0.1:${port}/api/timestamp/v6`, query, { localAddress: '127.0.0.2', headers: QUERY_HEADERS });
    expect(mapped.status).toBe(200);
    expectTsaRefusal(await postRaw(`http://127.0.0.1:${port}/api/timestamp/v6`, query, { localAddress: '127.0.0.1', headers: QUERY_HEADERS }), 403, 'ERR_TSA_FORBIDDEN');
    expectTsaRefusal(await postRaw(`http://127.0.0.1:${port}/api/timestamp/v6net`, query, { localAddress: '127.0.0.2', headers: QUERY_HEADERS }), 403, 'ERR_TSA_FORBIDDEN');
  });
});

describe('TSA access decided the same way for unknown and known clients', () => {
  let station: TestStation;

  beforeAll(async () => {
    station = await startTestStation();
    await station.data.clients.upsert({ clientId: 'known', allowedIps: ['127.0.0.9'] });
  });
  afterAll(() => station.dispose());

  it('reads the registry once per id and caches the answer, an unknown id (empty allow list) exactly like a known one', async () => {
    const looked: string[] = [];
    const clients = { find: (clientId: string) => (looked.push(clientId), station.data.clients.find(clientId)) };
    const access = new TsaClientAccess(clients, { cacheMs: 60_000 });
    for (let round = 0; round < 3; round++) {
      for (const clientId of ['known', 'made-up']) expect((await access.allowlist(clientId)).allows('127.0.0.2')).toBe(false);
    }
    expect(looked).toEqual(['known', 'made-up']);
    expect((await access.allowlist('known')).constructor).toBe((await access.allowlist('made-up')).constructor);
  });

  it('keeps only the ids looked up last, so made-up ids cannot grow it', async () => {
    const looked: string[] = [];
    const access = new TsaClientAccess({ find: async (clientId: string) => void looked.push(clientId) }, { cacheMs: 60_000, maxEntries: 2 });
    for (const clientId of ['a', 'b', 'a', 'c', 'a', 'b']) await access.allowlist(clientId);
    expect(looked).toEqual(['a', 'b', 'c', 'a', 'b']);
  });
});

describe('TSA failures of the station itself', () => {
  let app: FastifyInstance;
  let lines: Array<Record<string, unknown>>;
  let port: number;
  let station: TestStation;

  beforeAll(async () => {
    station = await startTestStation();
    await station.data.clients.upsert({ clientId: 'shop', allowedIps: ['127.0.0.2'] });
    lines = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    app = Fastify({ loggerInstance: logger as FastifyBaseLogger });
    installErrorHandler(app);
    // The store failing under every request (a full disk): the TSA throws instead of answering.
    const failing = { respond: async () => Promise.reject(new Error('SQLITE_FULL: database or disk is full')) } as unknown as TimestampAuthority;
    await app.register(timestampRoutes({ tsa: failing, clients: station.data.clients }), { prefix: '/api' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
    await station.dispose();
  });

  it('answers a systemFailure rejection with 500, and logs one line per failure kind however many requests fail', async () => {
    const url = `http://127.0.0.1:${port}/api/timestamp/shop`;
    for (let i = 0; i < 40; i++) {
      expectTsaRefusal(await postRaw(url, Buffer.from('q'), { localAddress: '127.0.0.2', headers: QUERY_HEADERS }), 500, 'ERR_INTERNAL');
      expectTsaRefusal(await postRaw(url, Buffer.from('q'), { localAddress: '127.0.0.3', headers: QUERY_HEADERS }), 403, 'ERR_TSA_FORBIDDEN');
    }
    const failed = lines.filter((line) => line.msg === 'request failed');
    const refused = lines.filter((line) => line.msg === 'request refused');
    expect(failed).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]).not.toHaveProperty('err');
  });
});
