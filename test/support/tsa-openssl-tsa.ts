// A reference TSA run by `openssl ts -reply`: an independent RFC 3161 implementation, used as an "external TSA"
// for the client tests and as the per-request baseline of the benchmark.
import { createPrivateKey } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestCa, createTestSigner } from './test-pki.js';
import { openssl } from './tsa-openssl.js';

export interface OpensslTsa {
  config: string;
  /** Root of the reference TSA's chain (PEM file). */
  caPem: string;
  /** Runs `openssl ts -reply` for one query file; resolves when the reply file is written. */
  reply(queryPath: string, replyPath: string): Promise<void>;
}

export async function createOpensslTsa(dir: string): Promise<OpensslTsa> {
  const ca = await createTestCa('CN=Reference TSA Root,O=Signing Station Tests', 'RSA-2048');
  const signer = await createTestSigner(ca, 'CN=Reference TSA,O=Signing Station Tests', 'RSA-2048', 'tsa');
  const caPem = join(dir, 'ref-ca.pem');
  const certPem = join(dir, 'ref-tsa.pem');
  const keyPem = join(dir, 'ref-tsa.key');
  const config = join(dir, 'ref-tsa.cnf');
  await writeFile(caPem, ca.pem);
  await writeFile(certPem, signer.pem);
  await writeFile(keyPem, createPrivateKey({ key: Buffer.from(signer.pkcs8), format: 'der', type: 'pkcs8' }).export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  await writeFile(join(dir, 'ref-serial'), '01\n');
  await writeFile(
    config,
    [
      '[ tsa ]',
      'default_tsa = tsa_config',
      '[ tsa_config ]',
      `dir = ${dir}`,
      `serial = ${join(dir, 'ref-serial')}`,
      `signer_cert = ${certPem}`,
      `certs = ${certPem}`,
      `signer_key = ${keyPem}`,
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
  return {
    config,
    caPem,
    async reply(queryPath, replyPath) {
      const result = await openssl(['ts', '-reply', '-config', config, '-queryfile', queryPath, '-out', replyPath]);
      if (result.code !== 0) throw new Error(`openssl ts -reply failed: ${result.stderr}`);
    },
  };
}
