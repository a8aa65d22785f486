// A reference RFC 3161 TSA for the signing tests: `openssl ts -reply` with its own key and a TSA certificate from a
// separate test root, so timestamps in signed documents are produced (and later verified) independently of the
// station's code.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
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
  const self: OpensslTsa = {
    rootPem: root.pem,
    rootPath: join(dir, 'tsa-root.pem'),
    issued: 0,
    async timestamp(hash: Uint8Array, hashAlgorithm: HashAlgorithm): Promise<Uint8Array> {
      // One at a time: openssl increments the serial file without locking.
      const result = queue.then(async () => {
        const work = await mkdtemp(join(dir, 'ts-'));
        try {
          const flag = `-${hashAlgorithm.replace('-', '').toLowerCase()}`;
          await run('openssl', ['ts', '-query', '-digest', Buffer.from(hash).toString('hex'), flag, '-cert', '-out', join(work, 'q.tsq')]);
          await run('openssl', ['ts', '-reply', '-config', config, '-queryfile', join(work, 'q.tsq'), '-token_out', '-out', join(work, 't.der')]);
          self.issued++;
          return new Uint8Array(await readFile(join(work, 't.der')));
        } finally {
          await rm(work, { recursive: true, force: true });
        }
      });
      queue = result.then(() => undefined, () => undefined);
      return result;
    },
  };
  return self;
}
