// Every ASiC form, made here: ASiC-S with a CAdES signature or an RFC 3161 timestamp over its one file (openssl
// cms and openssl's TSA), and the malformed forms the reference validator fails as such (TOTAL-FAILED/FORMAT_FAILURE):
// ASiC-S with two files, with its file in a folder, or with none; ASiC-E with no data file.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../../src/station/pki/x509.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/pki/test-pki.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/tsa/openssl-tsa.js';
import { trustOf } from '../../support/verification/trust-of.js';
import { writeAsicZip } from '../../support/verification/write-asic-zip.js';

const exec = promisify(execFile);
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END ${label}-----\n`;
const NOTE = Buffer.from('the agreed text');
const ASICS = Buffer.from('application/vnd.etsi.asic-s+zip');
const ASICE = Buffer.from('application/vnd.etsi.asic-e+zip');

let dir: string;
let ca: TestCa;
let tsa: OpensslTsa;
let signature: Buffer;
let token: Uint8Array;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asic-forms-'));
  ca = await createTestCa();
  tsa = await createOpensslTsa(dir);
  const signer = await createTestSigner(ca, 'CN=Ieva Bērziņa,O=Signing Station Tests,C=LV', 'RSA-2048');
  await writeFile(join(dir, 'key.pem'), pem('PRIVATE KEY', signer.pkcs8));
  await writeFile(join(dir, 'cert.pem'), signer.pem);
  await writeFile(join(dir, 'note.txt'), NOTE);
  await exec('openssl', ['cms', '-sign', '-binary', '-in', 'note.txt', '-signer', 'cert.pem', '-inkey', 'key.pem', '-outform', 'DER', '-out', 'signature.p7s'], { cwd: dir });
  signature = await readFile(join(dir, 'signature.p7s'));
  token = await tsa.timestamp(createHash('sha256').update(NOTE).digest(), 'SHA-256');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const trust = () => trustOf(new x509.X509Certificate(Uint8Array.from(ca.der)), new x509.X509Certificate(readFileSync(tsa.rootPath, 'utf8')));
const verified = async (name: string, entries: ReadonlyArray<readonly [string, Uint8Array]>) => verifyDocument(await writeAsicZip(join(dir, name), entries), { trust: trust(), offline: true });

describe('ASiC container forms', () => {
  it('ASiC-S with a CAdES signature, and with a timestamp, over its one file: TOTAL-PASSED; a changed file: HASH_FAILURE', async () => {
    const signed = await verified('signed.asics', [['mimetype', ASICS], ['note.txt', NOTE], ['META-INF/signature.p7s', signature]]);
    expect(signed).toMatchObject({ format: 'asics', indication: 'TOTAL-PASSED', signatures: [expect.objectContaining({ kind: 'CAdES', signer: expect.stringContaining('Ieva') })] });
    const stamped = await verified('stamped.asics', [['mimetype', ASICS], ['note.txt', NOTE], ['META-INF/timestamp.tst', token]]);
    expect(stamped).toMatchObject({ format: 'asics', indication: 'TOTAL-PASSED', signatures: [expect.objectContaining({ kind: 'RFC 3161 timestamp' })] });
    const changed = await verified('changed.asics', [['mimetype', ASICS], ['note.txt', Buffer.from('other text')], ['META-INF/timestamp.tst', token]]);
    expect(changed.signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE' });
  });

  it('ASiC-S with two files, or with its file in a folder, or with none: each signature TOTAL-FAILED/FORMAT_FAILURE saying why', async () => {
    const cases = [
      ['two.asics', [['mimetype', ASICS], ['note.txt', NOTE], ['other.txt', NOTE], ['META-INF/signature.p7s', signature]], /exactly one data file; this one holds 2/],
      ['folder.asics', [['mimetype', ASICS], ['docs/note.txt', NOTE], ['META-INF/signature.p7s', signature]], /docs\/note\.txt is in a folder/],
      ['none.asics', [['mimetype', ASICS], ['META-INF/timestamp.tst', token]], /exactly one data file; this one holds 0/],
    ] as const;
    for (const [name, entries, why] of cases) {
      const report = await verified(name, entries);
      expect(report.signatures, name).toHaveLength(1);
      expect(report.signatures[0]!.verdict, name).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason: expect.stringMatching(why) });
    }
  });

  it('ASiC-E with no data file is read, and its signature fails as malformed: nothing in it is signed', async () => {
    const manifest = Buffer.from(
      '<?xml version="1.0" encoding="UTF-8"?><asic:ASiCManifest xmlns:asic="http://uri.etsi.org/02918/v1.2.1#"><asic:SigReference MimeType="application/pkcs7-signature" URI="META-INF/signature001.p7s"/></asic:ASiCManifest>',
    );
    await writeFile(join(dir, 'ASiCManifest.xml'), manifest);
    await exec('openssl', ['cms', '-sign', '-binary', '-in', 'ASiCManifest.xml', '-signer', 'cert.pem', '-inkey', 'key.pem', '-outform', 'DER', '-out', 'signature001.p7s'], { cwd: dir });
    const report = await verified('empty.asice', [['mimetype', ASICE], ['META-INF/ASiCManifest.xml', manifest], ['META-INF/signature001.p7s', await readFile(join(dir, 'signature001.p7s'))]]);
    expect(report).toMatchObject({ format: 'asice', indication: 'TOTAL-FAILED' });
    expect(report.signatures[0]!.verdict).toMatchObject({ subIndication: 'FORMAT_FAILURE', reason: 'the container holds no data file: nothing in it is signed' });
  });
});
