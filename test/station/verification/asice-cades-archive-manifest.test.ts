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
import type { DocumentVerification } from '../../../src/core/schemas/verification-report.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/pki/test-pki.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/tsa/openssl-tsa.js';
import { trustOf } from '../../support/verification/trust-of.js';

const exec = promisify(execFile);
const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/(.{64})/g, '$1\n')}\n-----END ${label}-----\n`;
const NOTE = Buffer.from('the agreed text');
const ASIC = 'xmlns:asic="http://uri.etsi.org/02918/v1.2.1#"';

let dir: string;
let ca: TestCa;
let tsa: OpensslTsa;
let manifest: Buffer;
let signature: Buffer;

/** A manifest naming `sigReference` and, with their SHA-256 digests, the files given. */
function asicManifest(root: 'ASiCManifest' | 'ASiCArchiveManifest', sigReference: string, files: Record<string, Buffer>): Buffer {
  const references = Object.entries(files).map(
    ([uri, bytes]) =>
      `<asic:DataObjectReference URI="${uri}"><DigestMethod xmlns="http://www.w3.org/2000/09/xmldsig#" Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>` +
      `<DigestValue xmlns="http://www.w3.org/2000/09/xmldsig#">${createHash('sha256').update(bytes).digest('base64')}</DigestValue></asic:DataObjectReference>`,
  );
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><asic:${root} ${ASIC}><asic:SigReference URI="${sigReference}"/>${references.join('')}</asic:${root}>`);
}

// An ASiC-E with CAdES as ETSI EN 319 162-1 describes it (`openssl cms` signs the manifest's bytes), then its
// long-term archive form: an ASiCArchiveManifest naming the data file, the manifest and the signature, with an
// RFC 3161 token from the openssl reference TSA over the archive manifest's bytes.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asice-cades-archive-'));
  ca = await createTestCa();
  tsa = await createOpensslTsa(dir);
  const signer = await createTestSigner(ca, 'CN=Jana Nováková,O=Signing Station Tests,C=SK', 'RSA-2048');
  await writeFile(join(dir, 'key.pem'), pem('PRIVATE KEY', signer.pkcs8));
  await writeFile(join(dir, 'cert.pem'), signer.pem);
  manifest = asicManifest('ASiCManifest', 'META-INF/signature001.p7s', { 'note.txt': NOTE });
  await writeFile(join(dir, 'ASiCManifest.xml'), manifest);
  await exec('openssl', ['cms', '-sign', '-binary', '-in', 'ASiCManifest.xml', '-signer', 'cert.pem', '-inkey', 'key.pem', '-outform', 'DER', '-out', 'signature001.p7s'], { cwd: dir });
  signature = await readFile(join(dir, 'signature001.p7s'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The container with an archive manifest over `covered` and a token over `stamped` (the archive manifest by default). */
async function archived(name: string, covered: Record<string, Buffer>, stamped?: Buffer): Promise<DocumentVerification> {
  const archive = asicManifest('ASiCArchiveManifest', 'META-INF/timestamp001.tst', covered);
  const token = await tsa.timestamp(createHash('sha256').update(stamped ?? archive).digest(), 'SHA-256');
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: false });
  zip.addBuffer(NOTE, 'note.txt');
  zip.addBuffer(manifest, 'META-INF/ASiCManifest.xml');
  zip.addBuffer(signature, 'META-INF/signature001.p7s');
  zip.addBuffer(archive, 'META-INF/ASiCArchiveManifest.xml');
  zip.addBuffer(Buffer.from(token), 'META-INF/timestamp001.tst');
  zip.end();
  const path = join(dir, `${name}.asice`);
  await pipeline(zip.outputStream, createWriteStream(path));
  const trust = trustOf(ca.certificate, new x509.X509Certificate(await readFile(tsa.rootPath, 'utf8')));
  return verifyDocument(path, { trust, offline: true });
}

const ALL = (): Record<string, Buffer> => ({ 'note.txt': NOTE, 'META-INF/ASiCManifest.xml': manifest, 'META-INF/signature001.p7s': signature });
const lines = (report: DocumentVerification) => report.signatures.map((s) => [s.kind, s.verdict.indication, s.verdict.subIndication]);

describe('ASiC-E with CAdES: the archive manifest (long-term archive)', () => {
  it('reads the archive timestamp over the manifest, passes it when every file it names is as it was, next to the signature', async () => {
    const report = await archived('intact', ALL());
    expect(lines(report)).toEqual([
      ['CAdES', 'TOTAL-PASSED', null],
      ['RFC 3161 timestamp', 'TOTAL-PASSED', null],
    ]);
  });

  it('fails the archive timestamp when a file it names differs from its digest, and its token when it is over other bytes; the signature stands', async () => {
    const changed = await archived('changed-reference', { ...ALL(), 'META-INF/signature001.p7s': Buffer.from('another signature') });
    expect(changed.signatures[1]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE', reason: expect.stringContaining('META-INF/signature001.p7s') });
    const copied = await archived('copied-token', ALL(), Buffer.from('another archive manifest'));
    expect(copied.signatures[1]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE' });
    for (const report of [changed, copied]) expect(report.indication).toBe('TOTAL-PASSED');
  });

  it('says a file the archive manifest names but the container lacks is not found', async () => {
    const report = await archived('missing-reference', { ...ALL(), 'META-INF/ASiCArchiveManifest001.xml': Buffer.from('an earlier archive manifest') });
    expect(report.signatures[1]!.verdict).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'SIGNED_DATA_NOT_FOUND' });
  });
});
