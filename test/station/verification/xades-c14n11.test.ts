import { execFile } from 'node:child_process';
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

// A ds:Signature over a container's data file whose SignedInfo is canonicalised with Canonical XML 1.1, as
// Estonian and Latvian signers write it; xmlsec1 fills in the digest, the value and the certificate (it reads
// note.txt from its working directory).
const TEMPLATE = `<?xml version="1.0" encoding="UTF-8"?>
<asic:XAdESSignatures xmlns:asic="http://uri.etsi.org/02918/v1.2.1#"><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="S0">
<ds:SignedInfo><ds:CanonicalizationMethod Algorithm="http://www.w3.org/2006/12/xml-c14n11"/><ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>
<ds:Reference URI="note.txt"><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference>
</ds:SignedInfo><ds:SignatureValue/><ds:KeyInfo><ds:X509Data><ds:X509Certificate/></ds:X509Data></ds:KeyInfo></ds:Signature></asic:XAdESSignatures>
`;

let dir: string;
let ca: TestCa;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'c14n11-'));
  ca = await createTestCa();
  const signer = await createTestSigner(ca, 'CN=Reinis Ozols,O=Signing Station Tests,C=LV', 'RSA-2048');
  await writeFile(join(dir, 'key.pem'), pem('PRIVATE KEY', signer.pkcs8));
  await writeFile(join(dir, 'cert.pem'), signer.pem);
  await writeFile(join(dir, 'template.xml'), TEMPLATE);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An ASiC-E holding `note` as note.txt and the xmlsec1 signature made over `signedNote`. */
async function container(name: string, signedNote: string, note: string): Promise<string> {
  await writeFile(join(dir, 'note.txt'), signedNote);
  await exec('xmlsec1', ['--sign', '--privkey-pem', `${join(dir, 'key.pem')},${join(dir, 'cert.pem')}`, '--output', join(dir, `${name}.xml`), join(dir, 'template.xml')], { cwd: dir });
  await exec('xmlsec1', ['--verify', '--insecure', join(dir, `${name}.xml`)], { cwd: dir }); // the value and digest; the chain is ours to judge
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: false });
  zip.addBuffer(Buffer.from(note), 'note.txt');
  zip.addBuffer(
    Buffer.from('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.etsi.asic-e+zip"/><manifest:file-entry manifest:full-path="note.txt" manifest:media-type="text/plain"/></manifest:manifest>'),
    'META-INF/manifest.xml',
  );
  zip.addBuffer(await readFile(join(dir, `${name}.xml`)), 'META-INF/signatures0.xml');
  zip.end();
  const path = join(dir, `${name}.asice`);
  await pipeline(zip.outputStream, createWriteStream(path));
  return path;
}

describe('XAdES canonicalised with Canonical XML 1.1', () => {
  it('is intact (xmlsec1 agrees), and a changed data file is still a HASH_FAILURE', async () => {
    const trust = trustOf(ca.certificate);
    const intact = await verifyDocument(await container('intact', 'the agreed text', 'the agreed text'), { trust });
    expect(intact.signatures[0]).toMatchObject({ kind: 'XAdES', intact: true, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
    const changed = await verifyDocument(await container('changed', 'the agreed text', 'another text'), { trust });
    expect(changed.signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE' });
  });
});
