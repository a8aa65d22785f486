// A reference RFC 3161 TSA run by `openssl ts -reply`, with its own key and a TSA certificate from a separate test
// root: an implementation independent of the station's. The signing tests timestamp with it (in process or over
// HTTP), the TSA client tests use it as an "external TSA", the TSA benchmark as its per-request baseline.
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { HashAlgorithm } from '../../../src/station/pki/hash-algorithms.js';
import type { TimestampClient } from '../../../src/station/tsa/timestamp-client.js';
import { createTestCa, createTestSigner } from '../pki/test-pki.js';
import { openssl } from './tsa-openssl.js';

export interface OpensslTsa extends TimestampClient {
  config: string;
  /** PEM of the TSA's root, and the file holding it (for `openssl ts -verify -CAfile` and other validators). */
  rootPem: string;
  rootPath: string;
  /** How many replies were issued. */
  issued: number;
  /** Runs `openssl ts -reply` for one query file; resolves when the reply file is written. */
  reply(queryPath: string, replyPath: string): Promise<void>;
  /** Serves RFC 3161 over HTTP on 127.0.0.1 (a full TimeStampResp from `openssl ts -reply`). */
  serveHttp(): Promise<{ url: string; close: () => Promise<void> }>;
}

const pem = (label: string, der: Uint8Array): string =>
  `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;

export async function createOpensslTsa(dir: string): Promise<OpensslTsa> {
  const root = await createTestCa('CN=Reference TSA Root,O=Signing Station Tests,C=EE', 'P-256');
  const tsa = await createTestSigner(root, 'CN=Reference TSA,O=Signing Station Tests,C=EE', 'P-256', 'tsa');
  const rootPath = join(dir, 'ref-tsa-root.pem');
  const certPath = join(dir, 'ref-tsa.pem');
  const keyPath = join(dir, 'ref-tsa.key');
  const serialPath = join(dir, 'ref-tsa-serial');
  const config = join(dir, 'ref-tsa.cnf');
  await writeFile(rootPath, root.pem);
  await writeFile(certPath, tsa.pem);
  await writeFile(keyPath, pem('PRIVATE KEY', tsa.pkcs8), { mode: 0o600 });
  await writeFile(serialPath, '01\n');
  await writeFile(
    config,
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `serial = ${serialPath}`,
      'crypto_device = builtin',
      `signer_cert = ${certPath}`,
      `certs = ${certPath}`,
      `signer_key = ${keyPath}`,
      'signer_digest = sha256',
      'default_policy = 1.2.3.4.1',
      'other_policies = 1.2.3.4.5',
      'digests = sha256, sha384, sha512',
      'accuracy = secs:1',
      'ordering = no',
      'tsa_name = yes',
      'ess_cert_id_chain = no',
      'ess_cert_id_alg = sha256',
      '',
    ].join('\n'),
  );
  let queue = Promise.resolve();
  // One at a time: openssl increments the serial file without locking.
  const serialised = <T>(job: () => Promise<T>): Promise<T> => {
    const result = queue.then(job);
    queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  };
  const reply = (queryPath: string, replyPath: string, tokenOnly = false): Promise<void> =>
    serialised(async () => {
      const result = await openssl(['ts', '-reply', '-config', config, '-queryfile', queryPath, ...(tokenOnly ? ['-token_out'] : []), '-out', replyPath]);
      if (result.code !== 0) throw new Error(`openssl ts -reply failed: ${result.stderr}`);
      self.issued++;
    });
  /** A reply for query bytes, through files in a scratch directory. */
  const replyTo = async (query: Uint8Array | undefined, tokenOnly: boolean, makeQuery?: (queryPath: string) => Promise<void>): Promise<Buffer> => {
    const work = await mkdtemp(join(dir, 'ts-'));
    try {
      const queryPath = join(work, 'q.tsq');
      if (query) await writeFile(queryPath, query);
      else await makeQuery!(queryPath);
      await reply(queryPath, join(work, 'r.der'), tokenOnly);
      return await readFile(join(work, 'r.der'));
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  };
  const self: OpensslTsa = {
    config,
    rootPem: root.pem,
    rootPath,
    issued: 0,
    reply: (queryPath, replyPath) => reply(queryPath, replyPath),
    async timestamp(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array> {
      const flag = `-${hashAlgorithm.replace('-', '').toLowerCase()}`;
      const token = await replyTo(undefined, true, async (queryPath) => {
        const query = await openssl(['ts', '-query', '-digest', Buffer.from(hash).toString('hex'), flag, '-cert', '-out', queryPath]);
        if (query.code !== 0) throw new Error(`openssl ts -query failed: ${query.stderr}`);
      });
      return new Uint8Array(token);
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
          replyTo(Buffer.concat(chunks), false).then(
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
