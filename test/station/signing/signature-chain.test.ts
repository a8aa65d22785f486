import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignatureEngine } from '../../../src/station/signing/signature-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import { cmsParts, createNssDb, embeddedSignatures, opensslCmsVerify, pdfsig, xmlsecVerify } from '../../support/signing-validators.js';
import { writeMinimalPdf } from '../../support/signing-test-pdfs.js';
import { extractZip } from '../../support/signing-zip-extract.js';
import { createTestCa, createTestIntermediateCa, createTestSigner, type TestCa } from '../../support/test-pki.js';

let dir: string;
let root: TestCa;
let intermediate: TestCa;
let unrelated: TestCa;
let signer: Awaited<ReturnType<typeof createTestSigner>>;
let nss: string;
let rootPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signature-chain-'));
  root = await createTestCa('CN=Chain Test Root,O=Signing Station Tests,C=EE');
  [intermediate, unrelated] = await Promise.all([
    createTestIntermediateCa(root, 'CN=Chain Test Issuing CA,O=Signing Station Tests,C=EE'),
    createTestCa('CN=Unrelated Root,O=Signing Station Tests,C=EE'),
  ]);
  signer = await createTestSigner(intermediate, 'CN=Ąžuolas Čiurlionis,O=Signing Station Tests,C=LT', 'P-256');
  rootPath = join(dir, 'root.pem');
  await writeFile(rootPath, root.pem);
  nss = await createNssDb(join(dir, 'nss'), root.pem);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hashSigner = () => softKeySigner(signer.pkcs8);

describe('signatures embed the chain up to the trust anchor', () => {
  it('PAdES: a key with only its own certificate (as on a token) gets its issuers from the candidates; validators that know only the root accept it', async () => {
    const input = await writeMinimalPdf(join(dir, 'chain.pdf'));
    const output = join(dir, 'chain-signed.pdf');
    await SignatureEngine.sign('pades', input, { certificate: signer.der, issuers: [unrelated.der, root.der, intermediate.der], sign: hashSigner() }, { outputPath: output });
    const [embedded] = embeddedSignatures(await readFile(output));
    const certificates = cmsParts(embedded!.cms).certificates;
    expect(certificates.map((c) => c.toString('base64'))).toEqual([signer.der, intermediate.der, root.der].map((c) => Buffer.from(c).toString('base64')));
    const report = await pdfsig(nss, output);
    expect(report.signatures[0]!.valid && report.signatures[0]!.trusted, report.output).toBe(true);
    expect((await opensslCmsVerify(embedded!.cms, embedded!.signedContent, rootPath)).code).toBe(0);
  });

  it('PAdES without candidates embeds no issuer, and a validator knowing only the root cannot build the path', async () => {
    const input = await writeMinimalPdf(join(dir, 'bare.pdf'));
    const output = join(dir, 'bare-signed.pdf');
    await SignatureEngine.sign('pades', input, { certificate: signer.der, sign: hashSigner() }, { outputPath: output });
    const [embedded] = embeddedSignatures(await readFile(output));
    expect(cmsParts(embedded!.cms).certificates).toHaveLength(1);
    expect((await opensslCmsVerify(embedded!.cms, embedded!.signedContent, rootPath)).code).not.toBe(0);
  });

  it('ASiC-E: the XAdES KeyInfo carries the issuing CA and the root; xmlsec1 trusting only the root verifies', async () => {
    const input = join(dir, 'note.txt');
    await writeFile(input, 'Chain test note\n');
    const output = join(dir, 'chain.asice');
    await SignatureEngine.sign('asice', input, { certificate: signer.der, issuers: [root.der, intermediate.der], sign: hashSigner() }, { outputPath: output });
    const unzipped = await mkdtemp(join(dir, 'unzipped-'));
    await extractZip(output, unzipped);
    const xml = await readFile(join(unzipped, 'META-INF/signatures0.xml'), 'utf8');
    const certificates = [...xml.matchAll(/<(?:ds:)?X509Certificate>([^<]+)</g)].map((m) => m[1]!.replace(/\s+/g, ''));
    expect(certificates).toEqual([signer.der, intermediate.der, root.der].map((c) => Buffer.from(c).toString('base64')));
    const verified = await xmlsecVerify(unzipped, 'META-INF/signatures0.xml', rootPath);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  });
});
