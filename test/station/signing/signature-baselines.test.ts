import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignatureBaseline } from '../../../src/core/schemas/signature-baseline.js';
import { SignatureEngine } from '../../../src/station/signing/signature-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/tsa/openssl-tsa.js';
import { startRevocationServices, type RevocationServices } from '../../support/signing/revocation-services.js';
import { bouncyCastleCheck, cmsParts, createNssDb, embeddedSignatures, opensslCmsVerify, opensslTsVerify, pdfsig, qpdfCheck, run, xadesArchiveTimestampInput, xmlsecVerify } from '../../support/signing/signing-validators.js';
import { extractZip } from '../../support/signing/signing-zip-extract.js';
import { runCli } from '../../support/station/run-cli.js';
import { writeMinimalPdf } from '../../support/signing/signing-test-pdfs.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/pki/test-pki.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { checkRevocation as checkSignerRevocation } from '../../../src/station/verification/check-revocation.js';
import { x509 } from '../../../src/station/pki/x509.js';
import { trustOf } from '../../support/verification/trust-of.js';

type Signer = Awaited<ReturnType<typeof createTestSigner>>;
let dir: string;
let ca: TestCa;
let rootPath: string;
let nss: string;
let tsa: OpensslTsa;
let services: RevocationServices;
let ocspSigner: Signer;
let crlSigner: Signer;
let revokedSigner: Signer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pades-baselines-'));
  ca = await createTestCa('CN=Baseline Test Root,O=Signing Station Tests,C=EE');
  rootPath = join(dir, 'root.pem');
  await writeFile(rootPath, ca.pem);
  services = await startRevocationServices(dir, ca);
  [ocspSigner, crlSigner, revokedSigner, tsa, nss] = await Promise.all([
    createTestSigner(ca, 'CN=Łukasz Nowak,O=Signing Station Tests,C=PL', 'RSA-2048', 'signing', { ocspUrl: services.ocspUrl, crlUrl: services.crlUrl }),
    createTestSigner(ca, 'CN=Γιώργος Παπαδόπουλος,O=Signing Station Tests,C=GR', 'P-256', 'signing', { crlUrl: services.crlUrl }),
    createTestSigner(ca, 'CN=Revoked Signer,O=Signing Station Tests,C=EE', 'P-256', 'signing', { ocspUrl: services.ocspUrl }),
    createOpensslTsa(dir),
    createNssDb(join(dir, 'nss'), ca.pem),
  ]);
  await services.publish([ocspSigner, crlSigner], [revokedSigner]);
});

afterAll(async () => {
  await services?.close();
  await rm(dir, { recursive: true, force: true });
});

async function signAt(name: string, signer: Signer, baseline: SignatureBaseline): Promise<string> {
  const input = await writeMinimalPdf(join(dir, `${name}.pdf`));
  const output = join(dir, `${name}-signed.pdf`);
  await SignatureEngine.sign('pades', input, { certificate: signer.der, issuers: [ca.der], sign: softKeySigner(signer.pkcs8) }, { outputPath: output, timestampClient: tsa, baseline, reason: baseline });
  return output;
}

/** The DSS as qpdf shows it uncompressed, and the decoded streams its arrays name. */
async function readDss(file: string) {
  const qdf = join(dir, `${createHash('sha1').update(file).digest('hex')}.qdf.pdf`);
  expect((await run('qpdf', ['--qdf', '--object-streams=disable', file, qdf])).code).toBe(0);
  const text = (await readFile(qdf)).toString('latin1');
  const dssRef = /\/DSS (\d+) 0 R/.exec(text)?.[1];
  expect(dssRef, 'catalog has /DSS').toBeDefined();
  const dss = (await run('qpdf', [`--show-object=${dssRef!}`, qdf])).stdout;
  const streams = async (key: string): Promise<Buffer[]> => {
    const refs = [...(new RegExp(`/${key} \\[([^\\]]*)\\]`).exec(dss)?.[1] ?? '').matchAll(/(\d+) 0 R/g)].map((m) => m[1]!);
    return Promise.all(refs.map(async (ref) => (await import('node:child_process')).execFileSync('qpdf', [`--show-object=${ref}`, '--filtered-stream-data', qdf])));
  };
  return { dss, certs: await streams('Certs'), ocsps: await streams('OCSPs'), crls: await streams('CRLs') };
}

async function expectSignatureValid(file: string) {
  const report = await pdfsig(nss, file);
  const signature = report.signatures.find((s) => s.subFilter === 'ETSI.CAdES.detached');
  expect(signature?.valid && signature.trusted, report.output).toBe(true);
  const structure = await qpdfCheck(file);
  expect(structure.stdout + structure.stderr).toContain('No syntax or stream encoding errors found');
  expect(structure.stdout + structure.stderr).not.toContain('WARNING');
  const [embedded] = embeddedSignatures(await readFile(file));
  expect((await opensslCmsVerify(embedded!.cms, embedded!.signedContent, rootPath)).code).toBe(0);
  const bc = await bouncyCastleCheck(embedded!.cms, embedded!.signedContent, rootPath, tsa.rootPath);
  expect(bc.code, bc.stdout + bc.stderr).toBe(0);
  return { report, embedded: embedded! };
}

describe('PAdES baselines', () => {
  it('B-LT: a DSS with the chains and the OCSP response for the signer, a VRI entry keyed by the signature; OCSP says good', async () => {
    const output = await signAt('lt-ocsp', ocspSigner, 'B-LT');
    const { embedded } = await expectSignatureValid(output);
    const { dss, certs, ocsps, crls } = await readDss(output);
    const pdf = await readFile(output);
    const contents = Buffer.from(pdf.subarray(embedded.byteRange[1] + 1, embedded.byteRange[2] - 1).toString('latin1'), 'hex');
    expect(dss).toContain(`/${createHash('sha1').update(contents).digest('hex').toUpperCase()}`);
    expect(crls).toHaveLength(0);
    expect(ocsps).toHaveLength(1);
    const certBase64 = certs.map((c) => c.toString('base64'));
    expect(certBase64).toContain(Buffer.from(ocspSigner.der).toString('base64'));
    expect(certBase64).toContain(Buffer.from(ca.der).toString('base64'));
    expect(certs.length).toBeGreaterThanOrEqual(3); // signer, root, TSA certificate(s)
    await writeFile(join(dir, 'lt.ocsp'), ocsps[0]!);
    await writeFile(join(dir, 'lt-signer.pem'), ocspSigner.pem);
    const status = await run('openssl', ['ocsp', '-respin', join(dir, 'lt.ocsp'), '-CAfile', rootPath, '-issuer', rootPath, '-sha256', '-cert', join(dir, 'lt-signer.pem')]);
    expect(status.stdout + status.stderr).toMatch(/Response verify OK/);
    expect(status.stdout, status.stdout + status.stderr).toMatch(/lt-signer\.pem: good/);
  });

  it('B-LT from a CRL when the certificate names no OCSP responder', async () => {
    const output = await signAt('lt-crl', crlSigner, 'B-LT');
    await expectSignatureValid(output);
    const { ocsps, crls } = await readDss(output);
    expect(ocsps).toHaveLength(0);
    expect(crls).toHaveLength(1);
    await writeFile(join(dir, 'lt.crl'), crls[0]!);
    const crl = await run('openssl', ['crl', '-inform', 'DER', '-in', join(dir, 'lt.crl'), '-CAfile', rootPath, '-noout']);
    expect(crl.stdout + crl.stderr).toMatch(/verify OK/);
  });

  it('B-LTA: a document timestamp (ETSI.RFC3161) over the whole file, DSS included; openssl ts verifies it', async () => {
    const output = await signAt('lta', ocspSigner, 'B-LTA');
    await expectSignatureValid(output);
    const pdf = await readFile(output);
    expect(pdf.toString('latin1')).toMatch(/\/Type \/DocTimeStamp \/Filter \/Adobe.PPKLite \/SubFilter \/ETSI.RFC3161/);
    const signatures = embeddedSignatures(pdf);
    expect(signatures).toHaveLength(2);
    const documentTimestamp = signatures[1]!;
    expect(documentTimestamp.byteRange[2] + documentTimestamp.byteRange[3]).toBe(pdf.length);
    expect(documentTimestamp.signedContent.toString('latin1')).toContain('/DSS');
    expect((await opensslTsVerify(documentTimestamp.signedContent, documentTimestamp.cms, tsa.rootPath)).code).toBe(0);
    const changed = Buffer.from(documentTimestamp.signedContent);
    changed[10]! ^= 1;
    expect((await opensslTsVerify(changed, documentTimestamp.cms, tsa.rootPath)).code).not.toBe(0);
  });

  it('B-B and B-T stay as they were: no DSS; B-B has no timestamp', async () => {
    const bb = await signAt('bb', ocspSigner, 'B-B');
    const bt = await signAt('bt', ocspSigner, 'B-T');
    for (const file of [bb, bt]) expect((await readFile(file)).toString('latin1')).not.toContain('/DSS');
    expect(cmsParts(embeddedSignatures(await readFile(bb))[0]!.cms).timestampToken).toBeUndefined();
    expect(cmsParts(embeddedSignatures(await readFile(bt))[0]!.cms).timestampToken).toBeDefined();
  });

  it('refuses a revoked signer at B-LT with a clear error and writes nothing', async () => {
    const input = await writeMinimalPdf(join(dir, 'revoked.pdf'));
    const output = join(dir, 'revoked-signed.pdf');
    const signing = SignatureEngine.sign('pades', input, { certificate: revokedSigner.der, issuers: [ca.der], sign: softKeySigner(revokedSigner.pkcs8) }, { outputPath: output, timestampClient: tsa, baseline: 'B-LT' });
    await expect(signing).rejects.toMatchObject({ code: 'ERR_SIGNING_CERTIFICATE_REVOKED', message: expect.stringContaining('Revoked Signer') });
    await expect(stat(output)).rejects.toThrow();
    expect((await readdir(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('refuses B-LT when the signer has no issuer to ask about, and any timestamped level without a TSA', async () => {
    const input = await writeMinimalPdf(join(dir, 'no-issuer.pdf'));
    const sign = softKeySigner(ocspSigner.pkcs8);
    await expect(SignatureEngine.sign('pades', input, { certificate: ocspSigner.der, sign }, { outputPath: join(dir, 'no-issuer-signed.pdf'), timestampClient: tsa, baseline: 'B-LT' })).rejects.toMatchObject({
      code: 'ERR_SIGNING_UNSUPPORTED_SIGNER',
    });
    await expect(SignatureEngine.sign('pades', input, { certificate: ocspSigner.der, sign }, { outputPath: join(dir, 'no-tsa.pdf'), baseline: 'B-LTA' })).rejects.toThrow(TypeError);
  });
});

describe('signing-station sign --baseline', () => {
  it('B-LTA from the command line with a PKCS#12 file and an HTTP TSA: signature, DSS and document timestamp', async () => {
    const pem = (der: Uint8Array): string => `-----BEGIN PRIVATE KEY-----\n${Buffer.from(der).toString('base64')}\n-----END PRIVATE KEY-----\n`;
    await writeFile(join(dir, 'cli-key.pem'), pem(ocspSigner.pkcs8));
    await writeFile(join(dir, 'cli-cert.pem'), ocspSigner.pem);
    const p12 = join(dir, 'cli.p12');
    const exported = await run('openssl', ['pkcs12', '-export', '-in', join(dir, 'cli-cert.pem'), '-inkey', join(dir, 'cli-key.pem'), '-certfile', rootPath, '-out', p12, '-passout', 'pass:secret']);
    expect(exported.code, exported.stderr).toBe(0);
    const tsaHttp = await tsa.serveHttp();
    try {
      const input = await writeMinimalPdf(join(dir, 'cli.pdf'));
      const output = join(dir, 'cli-signed.pdf');
      const result = await runCli(['sign', input, '--out', output, '--pkcs12', p12, '--pin-stdin', '--baseline', 'B-LTA', '--tsa', tsaHttp.url], { stdin: 'secret\n' });
      expect(result.code, result.stderr).toBe(0);
      await expectSignatureValid(output);
      const { ocsps } = await readDss(output);
      expect(ocsps).toHaveLength(1);
      expect((await readFile(output)).toString('latin1')).toContain('/SubFilter /ETSI.RFC3161');
    } finally {
      await tsaHttp.close();
    }
  });
});

describe('ASiC-E (XAdES) baselines', () => {
  async function signContainer(name: string, signer: Signer, baseline: SignatureBaseline): Promise<string> {
    const input = join(dir, `${name}.txt`);
    await writeFile(input, `${name}\n`);
    const output = join(dir, `${name}.asice`);
    await SignatureEngine.sign('asice', input, { certificate: signer.der, issuers: [ca.der], sign: softKeySigner(signer.pkcs8) }, { outputPath: output, timestampClient: tsa, baseline });
    return output;
  }

  it('B-LT: CertificateValues with the TSA certificate and RevocationValues with the OCSP response; xmlsec1 verifies', async () => {
    const output = await signContainer('xades-lt', ocspSigner, 'B-LT');
    const root = await mkdtemp(join(dir, 'xades-lt-'));
    await extractZip(output, root);
    const xml = await readFile(join(root, 'META-INF/signatures0.xml'), 'utf8');
    const verified = await xmlsecVerify(root, 'META-INF/signatures0.xml', rootPath);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(xml).toMatch(/<xades:SignatureTimeStamp [^>]*>.*<\/xades:SignatureTimeStamp><xades:CertificateValues><xades:EncapsulatedX509Certificate>/);
    expect(xml).not.toContain(`<xades:EncapsulatedX509Certificate>${Buffer.from(ocspSigner.der).toString('base64')}<`);
    const ocsp = /<xades:EncapsulatedOCSPValue>([^<]+)</.exec(xml)?.[1];
    expect(ocsp).toBeDefined();
    expect(xml).toContain('<xades:RevocationValues><xades:OCSPValues>');
    await writeFile(join(dir, 'xades.ocsp'), Buffer.from(ocsp!, 'base64'));
    await writeFile(join(dir, 'xades-signer.pem'), ocspSigner.pem);
    const status = await run('openssl', ['ocsp', '-respin', join(dir, 'xades.ocsp'), '-CAfile', rootPath, '-issuer', rootPath, '-sha256', '-cert', join(dir, 'xades-signer.pem')]);
    expect(status.stdout, status.stdout + status.stderr).toMatch(/xades-signer\.pem: good/);
  });

  it('B-LT from a CRL: EncapsulatedCRLValue', async () => {
    const output = await signContainer('xades-crl', crlSigner, 'B-LT');
    const root = await mkdtemp(join(dir, 'xades-crl-'));
    await extractZip(output, root);
    const xml = await readFile(join(root, 'META-INF/signatures0.xml'), 'utf8');
    expect(xml).toMatch(/<xades:RevocationValues><xades:CRLValues><xades:EncapsulatedCRLValue>[^<]+<\/xades:EncapsulatedCRLValue><\/xades:CRLValues><\/xades:RevocationValues>/);
    expect((await xmlsecVerify(root, 'META-INF/signatures0.xml', rootPath)).code).toBe(0);
  });

  it('B-LTA: an xades141:ArchiveTimeStamp over the data, the signature and its long-term data; the JDK computes the same input and openssl ts verifies the token over it', async () => {
    const output = await signContainer('xades-lta', ocspSigner, 'B-LTA');
    const root = await mkdtemp(join(dir, 'xades-lta-'));
    await extractZip(output, root);
    const xml = await readFile(join(root, 'META-INF/signatures0.xml'), 'utf8');
    expect(xml).toMatch(/<\/xades:RevocationValues><xades141:ArchiveTimeStamp xmlns:xades141="http:\/\/uri.etsi.org\/01903\/v1.4.1#" Id="[^"]+"><ds:CanonicalizationMethod Algorithm="http:\/\/www.w3.org\/2001\/10\/xml-exc-c14n#"\/><xades:EncapsulatedTimeStamp>/);
    expect((await xmlsecVerify(root, 'META-INF/signatures0.xml', rootPath)).code).toBe(0);
    const archive = await xadesArchiveTimestampInput(root, 'META-INF/signatures0.xml');
    expect(archive.result.code, archive.result.stdout + archive.result.stderr).toBe(0);
    expect(archive.input.subarray(0, 'xades-lta\n'.length).toString()).toBe('xades-lta\n');
    const verified = await opensslTsVerify(archive.input, archive.token, tsa.rootPath);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    const tampered = Buffer.from(archive.input);
    tampered[0]! ^= 1;
    expect((await opensslTsVerify(tampered, archive.token, tsa.rootPath)).code).not.toBe(0);
  });

  it('refuses a revoked signer with a clear error, writing nothing', async () => {
    await expect(signContainer('xades-revoked', revokedSigner, 'B-LT')).rejects.toMatchObject({ code: 'ERR_SIGNING_CERTIFICATE_REVOKED' });
    await expect(stat(join(dir, 'xades-revoked.asice'))).rejects.toThrow();
  });
});

// The station's own verification (`signing-station verify`, the window's Verify screen) of what these levels embed.
describe('verification reads the revocation data a signature embeds', () => {
  const trust = () => trustOf(new x509.X509Certificate(Uint8Array.from(ca.der)), new x509.X509Certificate(readFileSync(tsa.rootPath, 'utf8')));
  const verified = async (file: string) => (await verifyDocument(file, { trust: trust() })).signatures[0]!;

  it('PAdES B-LT: the OCSP response in /DSS says good; from a CRL too; B-LTA is recognised; B-T embeds none', async () => {
    expect(await verified(await signAt('verify-lt-ocsp', ocspSigner, 'B-LT'))).toMatchObject({ level: 'B-LT', revocation: 'good', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
    expect(await verified(await signAt('verify-lt-crl', crlSigner, 'B-LT'))).toMatchObject({ level: 'B-LT', revocation: 'good', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
    expect(await verified(await signAt('verify-lta', ocspSigner, 'B-LTA'))).toMatchObject({ level: 'B-LTA', revocation: 'good', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
    // B-T embeds none: the status is fetched from the responder the certificate names.
    expect(await verified(await signAt('verify-t', ocspSigner, 'B-T'))).toMatchObject({ level: 'B-T', revocation: 'good', revocationSource: `OCSP ${services.ocspUrl}`, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
  });

  it('XAdES B-LT: the EncapsulatedOCSPValue says good; a CRL too', async () => {
    const signContainer = async (name: string, signer: Signer): Promise<string> => {
      const input = join(dir, `${name}.txt`);
      await writeFile(input, `${name}\n`);
      const output = join(dir, `${name}.asice`);
      await SignatureEngine.sign('asice', input, { certificate: signer.der, issuers: [ca.der], sign: softKeySigner(signer.pkcs8) }, { outputPath: output, timestampClient: tsa, baseline: 'B-LT' });
      return output;
    };
    const xadesOcsp = await verified(await signContainer('verify-xades-ocsp', ocspSigner));
    expect(xadesOcsp, JSON.stringify(xadesOcsp.problems)).toMatchObject({ kind: 'XAdES', level: 'B-LT', revocation: 'good', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
    expect(await verified(await signContainer('verify-xades-crl', crlSigner))).toMatchObject({ kind: 'XAdES', level: 'B-LT', revocation: 'good', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
  });

  it('counts an OCSP response only when it is signed by the issuer and about this certificate; a revoked one says revoked', async () => {
    // Judged an hour ago with nothing to prove it, fetching nothing: only what is embedded speaks.
    const checkRevocation = async (certificate: x509.X509Certificate, issuer: x509.X509Certificate, embedded: { crls: Uint8Array[]; ocsps: Uint8Array[] }) =>
      (await checkSignerRevocation({ certificate, issuer, embedded, judgedAt: new Date(Date.now() - 3_600_000), proven: false, now: new Date(), required: false, fetch: false })).status;
    const output = await signAt('verify-ocsp-evidence', ocspSigner, 'B-LT');
    const { ocsps } = await readDss(output);
    const response = new Uint8Array(ocsps[0]!);
    const [signer, other, root] = [new x509.X509Certificate(Uint8Array.from(ocspSigner.der)), new x509.X509Certificate(Uint8Array.from(crlSigner.der)), new x509.X509Certificate(Uint8Array.from(ca.der))];
    expect(await checkRevocation(signer, root, { crls: [], ocsps: [response] })).toBe('good');
    expect(await checkRevocation(other, root, { crls: [], ocsps: [response] })).toBe('not embedded');
    // The response's producedAt moved a year on: still well-formed, no longer what the responder signed.
    const forged = response.slice();
    const producedAt = Buffer.from(forged).indexOf(Buffer.from([0x18, 0x0f]));
    forged[producedAt + 5]! ^= 0x01;
    expect(await checkRevocation(signer, root, { crls: [], ocsps: [forged] })).toBe('not embedded');
    expect(await checkRevocation(signer, new x509.X509Certificate(Uint8Array.from(revokedSigner.der)), { crls: [], ocsps: [response] })).toBe('not embedded');

    // The responder's answer for the revoked signer (asked by openssl's own OCSP client) reads as revoked.
    await writeFile(join(dir, 'revoked-signer.pem'), revokedSigner.pem);
    const respout = join(dir, 'revoked.ocsp');
    const asked = await run('openssl', ['ocsp', '-sha256', '-issuer', rootPath, '-cert', join(dir, 'revoked-signer.pem'), '-url', services.ocspUrl, '-respout', respout, '-noverify']);
    expect(asked.stdout, asked.stdout + asked.stderr).toMatch(/revoked/);
    const revokedResponse = new Uint8Array(await readFile(respout));
    expect(await checkRevocation(new x509.X509Certificate(Uint8Array.from(revokedSigner.der)), root, { crls: [], ocsps: [revokedResponse] })).toBe('revoked');
  });
});
