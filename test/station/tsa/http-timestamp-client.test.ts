import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { x509 } from '../../../src/station/pki/x509.js';
import { HttpTimestampClient } from '../../../src/station/tsa/http-timestamp-client.js';
import { EmbeddedTimestampClient } from '../../../src/station/tsa/embedded-timestamp-client.js';
import { TimestampClientError } from '../../../src/station/tsa/timestamp-client-error.js';
import type { HashAlgorithm } from '../../../src/station/pki/hash-algorithms.js';
import { startTestStation, type TestStation } from '../../support/station/test-station.js';
import { openssl } from '../../support/tsa/tsa-openssl.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/tsa/openssl-tsa.js';

const NODE_HASH: Record<HashAlgorithm, string> = { 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };

/** A plain HTTP server answering every POST with `answer(body)`. */
async function serve(answer: (body: Buffer) => Promise<{ status?: number; body: Buffer; type?: string }>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      answer(Buffer.concat(chunks)).then(
        (reply) => res.writeHead(reply.status ?? 200, { 'content-type': reply.type ?? 'application/timestamp-reply' }).end(reply.body),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/tsa`, server };
}

async function expectClientError(promise: Promise<unknown>, code: string): Promise<TimestampClientError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TimestampClientError);
  expect((error as TimestampClientError).code).toBe(code);
  return error as TimestampClientError;
}

describe('HttpTimestampClient and EmbeddedTimestampClient', () => {
  let station: TestStation;
  let dir: string;
  let rootPem: string;
  let reference: OpensslTsa;
  const servers: Server[] = [];

  beforeAll(async () => {
    station = await startTestStation();
    dir = station.dataDir;
    await station.data.clients.upsert({ clientId: 'signer', allowedIps: ['127.0.0.1'] });
    await station.data.clients.upsert({ clientId: 'elsewhere', allowedIps: ['192.0.2.1'] });
    rootPem = join(dir, 'root.pem');
    await writeFile(rootPem, new x509.X509Certificate(Uint8Array.from(station.tsa.certificates.at(-1)!)).toString('pem'));
    reference = await createOpensslTsa(dir);
  });
  afterAll(async () => {
    for (const server of servers) server.close();
    await station.dispose();
  });

  async function verifyToken(token: Uint8Array, hash: Uint8Array, caPem: string): Promise<void> {
    const path = join(dir, `token-${randomBytes(4).toString('hex')}.der`);
    await writeFile(path, token);
    const result = await openssl(['ts', '-verify', '-digest', Buffer.from(hash).toString('hex'), '-token_in', '-in', path, '-CAfile', caPem]);
    expect(result.code, result.stderr + result.stdout).toBe(0);
  }

  it('gets tokens from the embedded TSA over HTTP that openssl verifies for the hash', async () => {
    const client = new HttpTimestampClient({ url: `${station.baseUrl}/api/timestamp/signer` });
    for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512'] as const) {
      const hash = createHash(NODE_HASH[algorithm]).update(randomBytes(100)).digest();
      await verifyToken(await client.timestamp(hash, algorithm), hash, rootPem);
    }
  });

  it('gets the same from the station in process', async () => {
    const hash = createHash('sha256').update('in process').digest();
    await verifyToken(await new EmbeddedTimestampClient(station.tsa).timestamp(hash, 'SHA-256'), hash, rootPem);
  });

  it('works with an external RFC 3161 TSA (openssl ts -reply behind HTTP)', async () => {
    const external = await serve(async (body) => {
      const id = randomBytes(4).toString('hex');
      await writeFile(join(dir, `ext-${id}.tsq`), body);
      await reference.reply(join(dir, `ext-${id}.tsq`), join(dir, `ext-${id}.tsr`));
      return { body: await readFile(join(dir, `ext-${id}.tsr`)) };
    });
    servers.push(external.server);
    const hash = createHash('sha512').update('external').digest();
    await verifyToken(await new HttpTimestampClient({ url: external.url }).timestamp(hash, 'SHA-512'), hash, reference.rootPath);
    const rejected = await expectClientError(new HttpTimestampClient({ url: external.url, policyOid: '1.2.3.4.999' }).timestamp(hash, 'SHA-512'), 'ERR_TSA_CLIENT_REJECTED');
    expect(rejected.details).toMatchObject({ pkiStatus: 2, failInfo: ['unacceptedPolicy'] });
  });

  it('refuses a replayed token (nonce) and a token for another hash (imprint)', async () => {
    const hash = createHash('sha256').update('replayed').digest();
    const captured: Buffer[] = [];
    const recorder = await serve(async (body) => {
      const response = await station.tsa.respond(body);
      captured.push(response);
      return { body: response };
    });
    servers.push(recorder.server);
    await new HttpTimestampClient({ url: recorder.url }).timestamp(hash, 'SHA-256');
    const replay = await serve(async () => ({ body: captured[0]! }));
    servers.push(replay.server);
    await expectClientError(new HttpTimestampClient({ url: replay.url }).timestamp(hash, 'SHA-256'), 'ERR_TSA_CLIENT_MISMATCH');
    const otherHash = createHash('sha256').update('something else').digest();
    await expectClientError(new HttpTimestampClient({ url: replay.url }).timestamp(otherHash, 'SHA-256'), 'ERR_TSA_CLIENT_MISMATCH');
  });

  it('reports refusals and failures with stable codes', async () => {
    const hash = createHash('sha256').update('x').digest();
    const forbidden = await expectClientError(new HttpTimestampClient({ url: `${station.baseUrl}/api/timestamp/elsewhere` }).timestamp(hash, 'SHA-256'), 'ERR_TSA_CLIENT_HTTP');
    expect(forbidden.message).toContain('403');
    expect(forbidden.message).toContain('not in its allowed IP addresses');
    expect(forbidden.retriable).toBe(false);

    const policy = await expectClientError(
      new HttpTimestampClient({ url: `${station.baseUrl}/api/timestamp/signer`, policyOid: '1.2.3' }).timestamp(hash, 'SHA-256'),
      'ERR_TSA_CLIENT_REJECTED',
    );
    expect(policy.details).toMatchObject({ failInfo: ['unacceptedPolicy'] });

    const closed = await serve(async () => ({ body: Buffer.alloc(0) }));
    const closedUrl = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    const unreachable = await expectClientError(new HttpTimestampClient({ url: closedUrl }).timestamp(hash, 'SHA-256'), 'ERR_TSA_CLIENT_UNREACHABLE');
    expect(unreachable.retriable).toBe(true);

    const garbage = await serve(async () => ({ body: randomBytes(64) }));
    servers.push(garbage.server);
    await expectClientError(new HttpTimestampClient({ url: garbage.url }).timestamp(hash, 'SHA-256'), 'ERR_TSA_CLIENT_BAD_RESPONSE');

    const huge = await serve(async () => ({ body: Buffer.alloc(300 * 1024) }));
    servers.push(huge.server);
    await expectClientError(new HttpTimestampClient({ url: huge.url }).timestamp(hash, 'SHA-256'), 'ERR_TSA_CLIENT_BAD_RESPONSE');

    const slow = await serve(() => new Promise(() => undefined));
    servers.push(slow.server);
    const timedOut = await expectClientError(new HttpTimestampClient({ url: slow.url, timeoutMs: 200 }).timestamp(hash, 'SHA-256'), 'ERR_TSA_CLIENT_UNREACHABLE');
    expect(timedOut.message).toContain('timed out');
    slow.server.closeAllConnections();
  });

  it('treats a wrong hash length or a non-HTTP URL as a caller mistake', async () => {
    const client = new HttpTimestampClient({ url: `${station.baseUrl}/api/timestamp/signer` });
    await expect(client.timestamp(new Uint8Array(20), 'SHA-256')).rejects.toBeInstanceOf(TypeError);
    expect(() => new HttpTimestampClient({ url: 'file:///etc/passwd' })).toThrow(TypeError);
  });
});
