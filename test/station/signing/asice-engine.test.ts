import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import * as asn1js from 'asn1js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { AsiceEngine } from '../../../src/station/signing/asice-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import { DocumentChangedError, OutputExistsError, SignatureValueInvalidError, UnsupportedDocumentError } from '../../../src/station/signing/signing-errors.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/tsa/openssl-tsa.js';
import { opensslTsVerify, xmlsecVerify } from '../../support/signing/signing-validators.js';
import { extractZip } from '../../support/signing/signing-zip-extract.js';
import { createTestCa, createTestSigner } from '../../support/pki/test-pki.js';
import { x509 } from '../../../src/station/pki/x509.js';

const DS = 'http://www.w3.org/2000/09/xmldsig#';
const XADES = 'http://uri.etsi.org/01903/v1.3.2#';
type Signer = Awaited<ReturnType<typeof createTestSigner>>;
let dir: string;
let rootPath: string;
let tsa: OpensslTsa;
let rsa: Signer;
let ec: Signer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'asice-test-'));
  const ca = await createTestCa();
  rootPath = join(dir, 'root.pem');
  await writeFile(rootPath, ca.pem);
  [rsa, ec, tsa] = await Promise.all([
    createTestSigner(ca, 'CN=Mari Mägi,O=Signing Station Tests,C=EE', 'RSA-2048'),
    createTestSigner(ca, 'CN=Jaan Tamm,O=Signing Station Tests,C=EE', 'P-256'),
    createOpensslTsa(dir),
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function sign(input: string, output: string, signer: Signer, reason?: string, timestamp = true) {
  const prepared = await AsiceEngine.prepare(input, { certificate: signer.der, ...(reason !== undefined ? { reason } : {}) });
  const signature = await softKeySigner(signer.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm);
  // Through JSON, as the HTTP layer keeps it between the two requests.
  const state = JSON.parse(JSON.stringify(prepared.state)) as typeof prepared.state;
  await AsiceEngine.finish(state, signature, { outputPath: output, ...(timestamp ? { timestampClient: tsa } : {}) });
  return prepared;
}

/** Unzips, runs xmlsec1 on every signature file, checks each SignatureTimeStamp with openssl ts. */
async function validate(container: string) {
  const root = await mkdtemp(join(dir, 'unzipped-'));
  const names = await extractZip(container, root);
  const signatureFiles = names.filter((n) => /^META-INF\/signatures\d+\.xml$/.test(n));
  const results = [];
  for (const file of signatureFiles) {
    const xmlsec = await xmlsecVerify(root, file, rootPath);
    const doc = new DOMParser().parseFromString(await readFile(join(root, file), 'utf8'), 'application/xml');
    const signatureValue = doc.getElementsByTagNameNS(DS, 'SignatureValue')[0]!;
    // Exclusive c14n of ds:SignatureValue written out by hand: one namespace, one attribute, base64 text.
    const c14n = `<ds:SignatureValue xmlns:ds="${DS}" Id="${signatureValue.getAttribute('Id')}">${signatureValue.textContent}</ds:SignatureValue>`;
    const token = doc.getElementsByTagNameNS(XADES, 'EncapsulatedTimeStamp')[0]?.textContent;
    const ts = token ? await opensslTsVerify(Buffer.from(c14n), Buffer.from(token, 'base64'), tsa.rootPath) : undefined;
    results.push({ file, xmlsec, ts, doc });
  }
  return { root, names, results };
}

describe('ASiC-E with XAdES B-T', () => {
  it('wraps a file in a new container: stored mimetype first, manifest, a signature xmlsec1 and openssl ts accept', async () => {
    const input = join(dir, 'contract 1.txt');
    await writeFile(input, 'The parties agree.\n');
    const output = join(dir, 'contract.asice');
    await sign(input, output, rsa, 'I agree <fully> & "freely"');
    const raw = await readFile(output);
    expect(raw.readUInt32LE(0)).toBe(0x04034b50);
    expect(raw.readUInt16LE(8)).toBe(0);
    expect(raw.readUInt16LE(28)).toBe(0);
    expect(raw.toString('latin1', 30, 38 + 31)).toBe('mimetypeapplication/vnd.etsi.asic-e+zip');
    const { names, results, root } = await validate(output);
    expect(names).toEqual(['mimetype', 'contract 1.txt', 'META-INF/manifest.xml', 'META-INF/signatures0.xml']);
    expect(await readFile(join(root, 'META-INF/manifest.xml'), 'utf8')).toContain('manifest:full-path="contract 1.txt" manifest:media-type="text/plain"');
    const [only] = results;
    expect(only!.xmlsec.code, only!.xmlsec.stderr).toBe(0);
    expect(only!.xmlsec.stderr).toContain('SignedInfo References (ok/all): 2/2');
    expect(only!.ts!.code, only!.ts!.stdout + only!.ts!.stderr).toBe(0);
    const doc = only!.doc;
    expect(doc.getElementsByTagNameNS(XADES, 'CommitmentTypeQualifier')[0]!.textContent).toBe('I agree <fully> & "freely"');
    // SigningCertificateV2 names the KeyInfo certificate: its SHA-256 and its issuer and serial (DER IssuerSerial).
    const certificate = Buffer.from(doc.getElementsByTagNameNS(DS, 'X509Certificate')[0]!.textContent!, 'base64');
    expect(certificate.equals(Buffer.from(rsa.der))).toBe(true);
    const certDigest = doc.getElementsByTagNameNS(XADES, 'CertDigest')[0]!;
    expect(certDigest.getElementsByTagNameNS(DS, 'DigestValue')[0]!.textContent).toBe(createHash('sha256').update(certificate).digest('base64'));
    const issuerSerial = Buffer.from(doc.getElementsByTagNameNS(XADES, 'IssuerSerialV2')[0]!.textContent!, 'base64');
    const parsed = new x509.X509Certificate(certificate);
    const asn1 = asn1js.fromBER(new Uint8Array(issuerSerial)).result as asn1js.Sequence;
    const [generalNames, serial] = asn1.valueBlock.value as [asn1js.Sequence, asn1js.Integer];
    const directoryName = (generalNames.valueBlock.value[0] as asn1js.Constructed).valueBlock.value[0]!;
    expect(new x509.Name(new Uint8Array(directoryName.toBER())).toString()).toBe(parsed.issuer);
    expect(Buffer.from(serial.valueBlock.valueHexView).toString('hex').replace(/^00/, '')).toBe(parsed.serialNumber.toLowerCase());
    const propertiesReference = doc.getElementsByTagNameNS(DS, 'Reference')[1]!;
    expect(propertiesReference.getAttribute('Type')).toBe('http://uri.etsi.org/01903#SignedProperties');
    expect(doc.getElementsByTagNameNS(XADES, 'SigningTime')).toHaveLength(1);
    expect(doc.getElementsByTagNameNS(XADES, 'MimeType')[0]!.textContent).toBe('text/plain');
  });

  it('adds a second signature to a multi-file container; both stay valid and every entry is unchanged', async () => {
    const container = join(dir, 'two-files.asice');
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: false, forceDosTimestamp: true });
    zip.addBuffer(Buffer.from('%PDF-1.4 not really\n'), 'a.pdf');
    zip.addBuffer(Buffer.from('second file\n'), 'docs/b.txt');
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(container));
    await sign(container, join(dir, 'two-1.asice'), ec, 'First');
    await sign(join(dir, 'two-1.asice'), join(dir, 'two-2.asice'), rsa, 'Second');
    const { names, results } = await validate(join(dir, 'two-2.asice'));
    expect(names).toEqual(['mimetype', 'a.pdf', 'docs/b.txt', 'META-INF/signatures0.xml', 'META-INF/signatures1.xml']);
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.xmlsec.code, r.xmlsec.stderr).toBe(0);
      expect(r.xmlsec.stderr).toContain('SignedInfo References (ok/all): 3/3');
      expect(r.ts!.code).toBe(0);
    }
    expect(results.map((r) => r.doc.getElementsByTagNameNS(XADES, 'CommitmentTypeQualifier')[0]!.textContent)).toEqual(['First', 'Second']);
    expect(results[0]!.doc.getElementsByTagNameNS(XADES, 'MimeType')[0]!.textContent).toBe('application/pdf');
  });

  it('builds a new container from several files (as a signing session holds them) with their names and media types', async () => {
    await writeFile(join(dir, 'original-0'), 'first');
    await writeFile(join(dir, 'original-1'), '{"second":true}');
    const prepared = await AsiceEngine.prepare(
      [
        { path: join(dir, 'original-0'), name: 'Letter.txt', mediaType: 'text/plain' },
        { path: join(dir, 'original-1'), name: 'data.json', mediaType: 'application/json' },
      ],
      { certificate: ec.der, reason: 'Both' },
    );
    const signature = await softKeySigner(ec.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await AsiceEngine.finish(prepared.state, signature, { outputPath: join(dir, 'session.asice'), timestampClient: tsa, outputMode: 0o600 });
    expect((await stat(join(dir, 'session.asice'))).mode & 0o777).toBe(0o600);
    const { names, results, root } = await validate(join(dir, 'session.asice'));
    expect(names).toEqual(['mimetype', 'Letter.txt', 'data.json', 'META-INF/manifest.xml', 'META-INF/signatures0.xml']);
    expect(results[0]!.xmlsec.code, results[0]!.xmlsec.stderr).toBe(0);
    expect(results[0]!.xmlsec.stderr).toContain('SignedInfo References (ok/all): 3/3');
    expect(results[0]!.ts!.code).toBe(0);
    const mimeTypes = results[0]!.doc.getElementsByTagNameNS(XADES, 'MimeType');
    expect([0, 1].map((i) => mimeTypes[i]!.textContent)).toEqual(['text/plain', 'application/json']);
    expect(await readFile(join(root, 'META-INF/manifest.xml'), 'utf8')).toContain('manifest:full-path="data.json" manifest:media-type="application/json"');
    await expect(AsiceEngine.prepare([{ path: join(dir, 'original-0'), name: 'META-INF/evil.xml' }], { certificate: ec.der })).rejects.toThrow(/cannot be a data file name/);
  });

  it('without a TSA the signature is B-B: valid, no timestamp', async () => {
    const input = join(dir, 'bb.txt');
    await writeFile(input, 'bb');
    await sign(input, join(dir, 'bb.asice'), ec, undefined, false);
    const { results } = await validate(join(dir, 'bb.asice'));
    expect(results[0]!.xmlsec.code).toBe(0);
    expect(results[0]!.ts).toBeUndefined();
    expect(results[0]!.doc.getElementsByTagNameNS(XADES, 'CommitmentTypeIndication')).toHaveLength(0);
  });

  it('detects tampering with a data file and with a signed property', async () => {
    const { root } = await validate(join(dir, 'contract.asice'));
    await writeFile(join(root, 'contract 1.txt'), 'The parties disagree.\n');
    const tamperedData = await xmlsecVerify(root, 'META-INF/signatures0.xml', rootPath);
    expect(tamperedData.code).not.toBe(0);
    expect(tamperedData.stdout + tamperedData.stderr).toMatch(/data and digest do not match/);
    const { root: root2 } = await validate(join(dir, 'contract.asice'));
    const sigPath = join(root2, 'META-INF/signatures0.xml');
    await writeFile(sigPath, (await readFile(sigPath, 'utf8')).replace('I agree &lt;fully&gt;', 'I refuse &lt;fully&gt;'));
    const tamperedReason = await xmlsecVerify(root2, 'META-INF/signatures0.xml', rootPath);
    expect(tamperedReason.code).not.toBe(0);
    expect(tamperedReason.stdout + tamperedReason.stderr).toMatch(/data and digest do not match/);
  });
});

describe('ASiC-E two-step safety', () => {
  it('rejects a wrong signature value, a changed document, and never overwrites', async () => {
    const input = join(dir, 'safe.txt');
    await writeFile(input, 'original');
    const prepared = await AsiceEngine.prepare(input, { certificate: rsa.der });
    const wrong = await softKeySigner(ec.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await expect(AsiceEngine.finish(prepared.state, wrong, { outputPath: join(dir, 'safe.asice') })).rejects.toBeInstanceOf(SignatureValueInvalidError);
    const signature = await softKeySigner(rsa.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await writeFile(join(dir, 'taken.asice'), 'precious');
    await expect(AsiceEngine.finish(prepared.state, signature, { outputPath: join(dir, 'taken.asice') })).rejects.toBeInstanceOf(OutputExistsError);
    expect(await readFile(join(dir, 'taken.asice'), 'utf8')).toBe('precious');
    await expect(AsiceEngine.finish(prepared.state, signature, { outputPath: input, overwrite: true })).rejects.toBeInstanceOf(OutputExistsError);
    await writeFile(input, 'changed!');
    await expect(AsiceEngine.finish(prepared.state, signature, { outputPath: join(dir, 'safe.asice') })).rejects.toBeInstanceOf(DocumentChangedError);
    await expect(stat(join(dir, 'safe.asice'))).rejects.toThrow();
    expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('refuses a zip that is not an ASiC-E container when it claims to be one', async () => {
    const fake = join(dir, 'fake.asice');
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('application/zip'), 'mimetype', { compress: false, forceDosTimestamp: true });
    zip.addBuffer(Buffer.from('x'), 'x.txt');
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(fake));
    await expect(AsiceEngine.prepare(fake, { certificate: rsa.der })).rejects.toBeInstanceOf(UnsupportedDocumentError);
  });

  const hostileContainer = async (name: string, entries: Array<[string, Buffer]>): Promise<string> => {
    const path = join(dir, name);
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from('application/vnd.etsi.asic-e+zip'), 'mimetype', { compress: false, forceDosTimestamp: true });
    for (const [entryName, content] of entries) zip.addBuffer(content, entryName);
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(path));
    return path;
  };

  it('refuses a container with two entries of one name, naming it', async () => {
    const path = await hostileContainer('duplicate.asice', [
      ['a.txt', Buffer.from('signed text')],
      ['a.txt', Buffer.from('other text')],
    ]);
    await expect(AsiceEngine.prepare(path, { certificate: rsa.der })).rejects.toMatchObject({ code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT', message: expect.stringContaining('a.txt appears twice') });
  });

  it('refuses an oversize or DOCTYPE manifest unparsed', async () => {
    const nested = `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">${'<x>'.repeat(120_000)}${'</x>'.repeat(120_000)}</manifest:manifest>`;
    const big = await hostileContainer('big-manifest.asice', [
      ['a.txt', Buffer.from('x')],
      ['META-INF/manifest.xml', Buffer.from(nested)],
    ]);
    await expect(AsiceEngine.prepare(big, { certificate: rsa.der })).rejects.toMatchObject({ code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT', message: expect.stringMatching(/manifest\.xml is \d+ bytes/) });
    const doctype = await hostileContainer('doctype-manifest.asice', [
      ['a.txt', Buffer.from('x')],
      ['META-INF/manifest.xml', Buffer.from('<!DOCTYPE m [<!ENTITY a "aaaa">]><m>&a;</m>')],
    ]);
    await expect(AsiceEngine.prepare(doctype, { certificate: rsa.der })).rejects.toMatchObject({ message: expect.stringMatching(/DOCTYPE/) });
  });

  it('refuses a manifest that is not well-formed namespaced XML, and a damaged entry, with its own error (found by fuzzing)', async () => {
    const badNamespace = await hostileContainer('namespace-manifest.asice', [
      ['a.txt', Buffer.from('x')],
      ['META-INF/manifest.xml', Buffer.from('<undeclared:manifest/>')],
    ]);
    await expect(AsiceEngine.prepare(badNamespace, { certificate: rsa.der })).rejects.toMatchObject({ code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT', message: expect.stringMatching(/not well-formed/) });
    const good = await hostileContainer('to-damage.asice', [['a.txt', Buffer.from('x')]]);
    const bytes = await readFile(good);
    const secondHeader = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), 4);
    bytes[secondHeader] = bytes[secondHeader]! ^ 1; // the data file's local header signature
    await writeFile(good, bytes);
    await expect(AsiceEngine.prepare(good, { certificate: rsa.der })).rejects.toMatchObject({ code: 'ERR_SIGNING_UNSUPPORTED_DOCUMENT' });
  });
});
