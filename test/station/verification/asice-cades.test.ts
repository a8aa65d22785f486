import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/pki/test-pki.js';
import { trustOf } from '../../support/verification/trust-of.js';

const exec = promisify(execFile);
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END ${label}-----\n`;
const NOTE = Buffer.from('the agreed text');

let dir: string;
let ca: TestCa;
let manifest: Buffer;
let signature: Buffer;

// An ASiC-E with CAdES as ETSI EN 319 162-1 describes it: the manifest lists note.txt with its SHA-256, and
// `openssl cms` signs the manifest's bytes (detached).
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asice-cades-'));
  ca = await createTestCa();
  const signer = await createTestSigner(ca, 'CN=Jana Nováková,O=Signing Station Tests,C=SK', 'RSA-2048');
  await writeFile(join(dir, 'key.pem'), pem('PRIVATE KEY', signer.pkcs8));
  await writeFile(join(dir, 'cert.pem'), signer.pem);
  manifest = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8"?><asic:ASiCManifest xmlns:asic="http://uri.etsi.org/02918/v1.2.1#"><asic:SigReference MimeType="application/pkcs7-signature" URI="META-INF/signature001.p7s"/>' +
      '<asic:DataObjectReference MimeType="text/plain" URI="note.txt"><DigestMethod xmlns="http://www.w3.org/2000/09/xmldsig#" Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>' +
      `<DigestValue xmlns="http://www.w3.org/2000/09/xmldsig#">${createHash('sha256').update(NOTE).digest('base64')}</DigestValue></asic:DataObjectReference></asic:ASiCManifest>`,
  );
  await writeFile(join(dir, 'ASiCManifest.xml'), manifest);
  await exec('openssl', ['cms', '-sign', '-binary', '-in', 'ASiCManifest.xml', '-signer', 'cert.pem', '-inkey', 'key.pem', '-outform', 'DER', '-out', 'signature001.p7s'], { cwd: dir });
  signature = await readFile(join(dir, 'signature001.p7s'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function container(name: string, note: Buffer | undefined, manifestBytes = manifest): Promise<string> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: false });
  zip.addBuffer(note ?? Buffer.from('another file'), note ? 'note.txt' : 'other.txt');
  zip.addBuffer(manifestBytes, 'META-INF/ASiCManifest.xml');
  zip.addBuffer(signature, 'META-INF/signature001.p7s');
  zip.end();
  const path = join(dir, `${name}.asice`);
  await pipeline(zip.outputStream, createWriteStream(path));
  return path;
}

describe('ASiC-E with CAdES (a signed ASiCManifest)', () => {
  it('passes when the manifest and its files are as signed; a changed file is HASH_FAILURE; a missing one SIGNED_DATA_NOT_FOUND', async () => {
    const trust = trustOf(ca.certificate);
    const verdict = async (note: Buffer | undefined, name: string) => (await verifyDocument(await container(name, note), { trust })).signatures.map((s) => [s.kind, s.verdict.indication, s.verdict.subIndication]);
    expect(await verdict(NOTE, 'intact')).toEqual([['CAdES', 'TOTAL-PASSED', null]]);
    expect(await verdict(Buffer.from('the other text'), 'changed')).toEqual([['CAdES', 'TOTAL-FAILED', 'HASH_FAILURE']]);
    expect(await verdict(undefined, 'missing')).toEqual([['CAdES', 'INDETERMINATE', 'SIGNED_DATA_NOT_FOUND']]);
  });

  it('fails a signature whose manifest is not XML as FORMAT_FAILURE instead of stopping the whole verification', async () => {
    const report = await verifyDocument(await container('not-xml', NOTE, Buffer.from('bla')), { trust: trustOf(ca.certificate) });
    expect(report.signatures.map((s) => [s.kind, s.verdict.indication, s.verdict.subIndication])).toEqual([['CAdES', 'TOTAL-FAILED', 'FORMAT_FAILURE']]);
  });
});
