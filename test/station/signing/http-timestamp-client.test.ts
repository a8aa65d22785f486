import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTimestampClient } from '../../../src/station/signing/http-timestamp-client.js';
import { TimestampFailedError } from '../../../src/station/signing/signing-errors.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/signing-openssl-tsa.js';
import { opensslTsVerify } from '../../support/signing-validators.js';

let dir: string;
let tsa: OpensslTsa;
let tsaHttp: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'http-tsa-test-'));
  tsa = await createOpensslTsa(dir);
  tsaHttp = await tsa.serveHttp();
});

afterAll(async () => {
  await tsaHttp.close();
  await rm(dir, { recursive: true, force: true });
});

/** A server in front of the TSA that answers every request with `answer(previousBody, realBody)`. */
async function proxy(answer: (real: Buffer, first: Buffer | undefined) => { status: number; body: Buffer }) {
  let first: Buffer | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const upstream = await fetch(tsaHttp.url, { method: 'POST', headers: { 'content-type': 'application/timestamp-query' }, body: Buffer.concat(chunks) });
      const real = Buffer.from(await upstream.arrayBuffer());
      const { status, body } = answer(real, first);
      first ??= real;
      res.writeHead(status, { 'content-type': 'application/timestamp-reply' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('HttpTimestampClient', () => {
  it('gets a token over HTTP that openssl ts -verify accepts for the data', async () => {
    const data = Buffer.from('signature value bytes');
    const token = await new HttpTimestampClient(tsaHttp.url).timestamp(createHash('sha384').update(data).digest(), 'SHA-384');
    const verify = await opensslTsVerify(data, token, tsa.rootPath);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  });

  it('rejects a replayed answer (nonce of another request)', async () => {
    const replaying = await proxy((real, first) => ({ status: 200, body: first ?? real }));
    try {
      const client = new HttpTimestampClient(replaying.url);
      await client.timestamp(createHash('sha256').update('a').digest(), 'SHA-256');
      const error = await client.timestamp(createHash('sha256').update('b').digest(), 'SHA-256').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TimestampFailedError);
      expect((error as TimestampFailedError).message).toContain('nonce');
    } finally {
      await replaying.close();
    }
  });

  it('reports HTTP errors, garbage answers and an unreachable TSA as retriable TimestampFailedError', async () => {
    const failing = await proxy(() => ({ status: 500, body: Buffer.alloc(0) }));
    const garbage = await proxy(() => ({ status: 200, body: Buffer.from('not DER') }));
    try {
      for (const url of [failing.url, garbage.url, 'http://127.0.0.1:9/']) {
        const error = await new HttpTimestampClient(url, 2000).timestamp(new Uint8Array(32), 'SHA-256').catch((e: unknown) => e);
        expect(error, url).toBeInstanceOf(TimestampFailedError);
        expect((error as TimestampFailedError).retriable).toBe(true);
      }
    } finally {
      await failing.close();
      await garbage.close();
    }
  });
});
