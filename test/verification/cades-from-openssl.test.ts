// CAdES made by other software (`openssl cms -sign`, detached) verified by the station and by openssl itself as the
// independent validator: intact, tampered, untrusted, revoked (the station fetches the CA's CRL; openssl's OCSP
// client asks the CA's responder), expired without a proof of existence. Each row: the station's ETSI verdict, and whether openssl accepts it (and why not).
import { execFile } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../src/station/pki/x509.js';
import { verifyDocument } from '../../src/station/verification/verify-document.js';
import { createTestCa, issueCertificate, keyParams, type TestCa } from '../support/pki/test-pki.js';
import { startRevocationServices, type RevocationServices } from '../support/signing/revocation-services.js';
import { trustOf } from '../support/verification/trust-of.js';

const exec = promisify(execFile);
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END ${label}-----\n`;
const DAY = 86_400_000;

let dir: string;
let ca: TestCa;
let services: RevocationServices;

/** A signer of `ca` valid between the dates, its key and certificate written for openssl; returns the .p7s over data.txt. */
async function signWithOpenssl(name: string, dates: { notBefore?: Date; notAfter?: Date } = {}) {
  const keys = (await webcrypto.subtle.generateKey(keyParams('P-256'), true, ['sign', 'verify'])) as CryptoKeyPair;
  const issued = await issueCertificate(ca, { subject: `CN=${name},O=Signing Station Tests,C=EE`, publicKey: keys.publicKey, usage: 'signing', crlUrl: services.crlUrl, ...dates });
  await writeFile(join(dir, `${name}.key`), pem('PRIVATE KEY', new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey))));
  await writeFile(join(dir, `${name}.pem`), issued.pem);
  const out = join(dir, `${name}.p7s`);
  await exec('openssl', ['cms', '-sign', '-binary', '-in', 'data.txt', '-signer', `${name}.pem`, '-inkey', `${name}.key`, '-outform', 'DER', '-out', out], { cwd: dir });
  return { issued, p7s: out };
}

/** openssl's verdict: verified, or its error; for revocation, what openssl's own OCSP client hears from the CA's responder. */
async function opensslVerdict(p7s: string, data: string, options: { trusted: boolean; askOcspAbout?: string }): Promise<string> {
  if (options.askOcspAbout) {
    const asked = await exec('openssl', ['ocsp', '-issuer', 'ca.pem', '-cert', options.askOcspAbout, '-url', services.ocspUrl, '-noverify'], { cwd: dir });
    return asked.stdout.replace(/\n/g, ' ');
  }
  const args = ['cms', '-verify', '-binary', '-inform', 'DER', '-in', p7s, '-content', data, '-out', '/dev/null', '-purpose', 'any'];
  if (options.trusted) args.push('-CAfile', join(dir, 'ca.pem'));
  else args.push('-no-CAfile', '-no-CApath');
  return exec('openssl', args, { cwd: dir }).then(
    () => 'verified',
    (error: { stderr: string }) => error.stderr.replace(/\n/g, ' '),
  );
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cades-openssl-'));
  ca = await createTestCa('CN=Other Software Root,O=Signing Station Tests,C=EE');
  await writeFile(join(dir, 'ca.pem'), ca.pem);
  await writeFile(join(dir, 'data.txt'), 'the agreed text\n');
  await writeFile(join(dir, 'tampered.txt'), 'the agreed text, changed\n');
  services = await startRevocationServices(dir, ca);
});

afterAll(async () => {
  await services?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('CAdES from openssl cms -sign: the station’s verdict against openssl’s', () => {
  it('intact / tampered / untrusted / revoked / expired without POE', async () => {
    const good = await signWithOpenssl('Good Signer');
    const revoked = await signWithOpenssl('Revoked Signer');
    const expired = await signWithOpenssl('Expired Signer', { notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - DAY) });
    await services.publish([good.issued, expired.issued], [revoked.issued]);

    const trusted = trustOf(new x509.X509Certificate(Uint8Array.from(ca.der)));
    const stranger = trustOf(new x509.X509Certificate(Uint8Array.from((await createTestCa('CN=Unrelated Root,C=EE')).der)));
    const rows = [
      { name: 'intact', p7s: good.p7s, data: 'data.txt', trust: trusted, station: ['TOTAL-PASSED', null], openssl: /^verified$/ },
      { name: 'tampered', p7s: good.p7s, data: 'tampered.txt', trust: trusted, station: ['TOTAL-FAILED', 'HASH_FAILURE'], openssl: /digest failure|content verify error/ },
      { name: 'untrusted', p7s: good.p7s, data: 'data.txt', trust: stranger, station: ['INDETERMINATE', 'NO_CERTIFICATE_CHAIN_FOUND'], openssl: /unable to get local issuer certificate/, untrusted: true },
      { name: 'revoked', p7s: revoked.p7s, data: 'data.txt', trust: trusted, station: ['TOTAL-FAILED', 'REVOKED'], openssl: /Revoked Signer\.pem: revoked/, askOcspAbout: 'Revoked Signer.pem' },
      { name: 'expired without POE', p7s: expired.p7s, data: 'data.txt', trust: trusted, station: ['INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE'], openssl: /certificate has expired/ },
    ] as const;
    for (const row of rows) {
      const report = await verifyDocument(row.p7s, { trust: row.trust, data: join(dir, row.data) });
      const { indication, subIndication } = report.signatures[0]!.verdict;
      expect([indication, subIndication], `${row.name}: ${report.signatures[0]!.verdict.reason}`).toEqual(row.station);
      const checked = await opensslVerdict(row.p7s, join(dir, row.data), { trusted: !('untrusted' in row), ...('askOcspAbout' in row ? { askOcspAbout: row.askOcspAbout } : {}) });
      expect(row.openssl.test(checked), `${row.name}: openssl said ${checked}`).toBe(true);
    }
  });
});
