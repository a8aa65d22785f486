// A reference RFC 3161 TSA for the signing tests: `openssl ts -reply` with its own key and a TSA certificate from a
// separate test root, so timestamps in signed documents are produced (and later verified) independently of the
// station's code.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { HashAlgorithm } from '../../src/station/tokens/token.js';
import type { TimestampClient } from '../../src/station/signing/timestamp-client.js';
import { createTestCa, createTestSigner } from './test-pki.js';

const run = promisify(execFile);

export interface OpensslTsa extends TimestampClient {
  /** PEM of the TSA's root, for `openssl ts -verify -CAfile` and other validators. */
  rootPem: string;
  rootPath: string;
  /** How many tokens were issued. */
  issued: number;
  /** Serves RFC 3161 over HTTP on 127.0.0.1 (a full TimeStampResp from `openssl ts -reply`). */
  serveHttp(): Promise<{ url: string; close: () => Promise<void> }>;
}

const pem = (label: string, der: Uint8Array): string =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;

export async function createOpensslTsa(dir: string): Promise<OpensslTsa> {
  const root = await createTestCa('CN=Signing Test TSA Root,O=Signing Station Tests,C=EE', 'P-256');
  const tsa = await createTestSigner(root, 'CN=Signing Test TSA,O=Signing Station Tests,C=EE', 'P-256', 'tsa');
  await writeFile(join(dir, 'tsa-root.pem'), root.pem);
  await writeFile(join(dir, 'tsa-cert.pem'), tsa.pem);
  await writeFile(join(dir, 'tsa-key.pem'), pem('PRIVATE KEY', tsa.pkcs8), { mode: 0o600 });
  await writeFile(join(dir, 'tsaserial'), '01\n');
  const config = join(dir, 'tsa.cnf');
  await writeFile(
    config,
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `dir = ${dir}`,
      'serial = $dir/tsaserial',
      'crypto_device = builtin',
      'signer_cert = $dir/tsa-cert.pem',
      'signer_key = $dir/tsa-key.pem',
      'signer_digest = sha256',
      'default_policy = 1.3.6.1.4.1.99999.1.1',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = yes',
      'tsa_name = yes',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  let queue = Promise.resolve();
  // One at a time: openssl increments the serial file without locking.
  const serialised = <T>(job: () => Promise<T>): Promise<T> => {
    const result = queue.then(job);
    queue = result.then(() => undefined, () => undefined);
    return result;
  };
  const reply = (query: Buffer, tokenOnly: boolean): Promise<Buffer> =>
    serialised(async () => {
      const work = await mkdtemp(join(dir, 'ts-'));
      try {
        await writeFile(join(work, 'q.tsq'), query);
        await run('openssl', ['ts', '-reply', '-config', config, '-queryfile', join(work, 'q.tsq'), ...(tokenOnly ? ['-token_out'] : []), '-out', join(work, 'r.der')]);
        self.issued++;
        return await readFile(join(work, 'r.der'));
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    });
  const self: OpensslTsa = {
    rootPem: root.pem,
    rootPath: join(dir, 'tsa-root.pem'),
    issued: 0,
    async timestamp(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array> {
      const work = await mkdtemp(join(dir, 'tq-'));
      try {
        const flag = `-${hashAlgorithm.replace('-', '').toLowerCase()}`;
        await run('openssl', ['ts', '-query', '-digest', Buffer.from(hash).toString('hex'), flag, '-cert', '-out', join(work, 'q.tsq')]);
        return new Uint8Array(await reply(await readFile(join(work, 'q.tsq')), true));
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    },
    async serveHttp() {
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          if (req.method !== 'POST' || req.headers['content-type'] !== 'application/timestamp-query') {
            res.writeHead(400).end();
            return;
          }
          reply(Buffer.concat(chunks), false).then(
            (body) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(body),
            () => res.writeHead(500).end(),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      return { url: `http://127.0.0.1:${port}/tsa`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
    },
  };
  return self;
}
