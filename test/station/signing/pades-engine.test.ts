import { copyFile, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PadesEngine } from '../../../src/station/signing/pades-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import { DocumentChangedError, OutputExistsError, SignatureValueInvalidError, TimestampFailedError, UnsupportedDocumentError } from '../../../src/station/signing/signing-errors.js';
import type { TimestampClient } from '../../../src/station/signing/timestamp-client.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/signing-openssl-tsa.js';
import { writeChromiumPdf, writeFormPdf, writeMinimalPdf, writeObjectStreamPdf } from '../../support/signing-test-pdfs.js';
import {
  bouncyCastleCheck,
  cmsParts,
  createNssDb,
  embeddedSignatures,
  opensslCmsVerify,
  opensslTsVerify,
  pdfsig,
  qpdfCheck,
  run,
} from '../../support/signing-validators.js';
import { createTestCa, createTestSigner } from '../../support/test-pki.js';

type Signer = Awaited<ReturnType<typeof createTestSigner>>;
let dir: string;
let rootPath: string;
let nss: string;
let tsa: OpensslTsa;
let rsa: Signer;
let ec: Signer;
let other: Signer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pades-test-'));
  const ca = await createTestCa();
  rootPath = join(dir, 'root.pem');
  await writeFile(rootPath, ca.pem);
  [rsa, ec, other, tsa, nss] = await Promise.all([
    createTestSigner(ca, 'CN=Mari Mägi,O=Signing Station Tests,C=EE', 'RSA-2048'),
    createTestSigner(ca, 'CN=Jaan Tamm,O=Signing Station Tests,C=EE', 'P-256'),
    createTestSigner(ca, 'CN=Poppler Signer,O=Signing Station Tests,C=EE', 'RSA-2048'),
    createOpensslTsa(dir),
    createNssDb(join(dir, 'nss'), ca.pem),
  ]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function sign(input: string, output: string, signer: Signer, options: { reason?: string; visible?: boolean; timestamp?: TimestampClient | null } = {}) {
  const prepared = await PadesEngine.prepare(input, {
    certificate: signer.der,
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
    visible: options.visible ?? false,
  });
  const signature = await softKeySigner(signer.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm);
  const timestampClient = options.timestamp === null ? undefined : (options.timestamp ?? tsa);
  await PadesEngine.finish(prepared.state, signature, { outputPath: output, ...(timestampClient ? { timestampClient } : {}) });
  return prepared;
}

/** Every independent validator over every signature of `file`; the last one must cover the whole file. */
async function expectAllValid(file: string, count: number, timestamped = true) {
  const report = await pdfsig(nss, file);
  expect(report.signatures, report.output).toHaveLength(count);
  for (const s of report.signatures) {
    expect(s.valid, s.text).toBe(true);
    expect(s.subFilter).toBe('ETSI.CAdES.detached');
  }
  expect(report.signatures.at(-1)!.totalDocumentSigned).toBe(true);
  expect(report.signatures.at(-1)!.trusted, report.output).toBe(true);
  const structure = await qpdfCheck(file);
  expect(structure.code, structure.stdout + structure.stderr).toBe(0);
  expect(structure.stdout + structure.stderr).toContain('No syntax or stream encoding errors found');
  expect(structure.stdout + structure.stderr).not.toContain('WARNING');
  const pdf = await readFile(file);
  const embedded = embeddedSignatures(pdf);
  expect(embedded).toHaveLength(count);
  for (const e of embedded) {
    const cms = await opensslCmsVerify(e.cms, e.signedContent, rootPath);
    expect(cms.code, cms.stderr).toBe(0);
    const parts = cmsParts(e.cms);
    expect(parts.signedAttributeTypes).not.toContain('1.2.840.113549.1.9.5');
    const bc = await bouncyCastleCheck(e.cms, e.signedContent, rootPath, timestamped ? tsa.rootPath : undefined);
    expect(bc.code, bc.stdout + bc.stderr).toBe(0);
    if (timestamped) {
      const ts = await opensslTsVerify(parts.signatureValue, parts.timestampToken!, tsa.rootPath);
      expect(ts.code, ts.stdout + ts.stderr).toBe(0);
    } else {
      expect(parts.timestampToken).toBeUndefined();
    }
  }
  return { report, pdf, embedded };
}

describe('PAdES B-T', () => {
  it('signs a classic-xref PDF with RSA: visible, with reason, timestamped; every validator agrees', async () => {
    const input = await writeMinimalPdf(join(dir, 'classic.pdf'));
    const before = await readFile(input);
    const output = join(dir, 'classic-signed.pdf');
    await sign(input, output, rsa, { reason: 'I agree with the contract — Mägi', visible: true });
    const { pdf } = await expectAllValid(output, 1);
    expect(pdf.subarray(0, before.length).equals(before)).toBe(true);
    const text = pdf.toString('latin1');
    expect(text).toContain('/Reason <feff');
    expect(Buffer.from(/\/Reason <([0-9a-f]+)>/.exec(text)![1]!, 'hex').subarray(2).swap16().toString('utf16le')).toBe('I agree with the contract — Mägi');
    expect(text).toMatch(/\/Subtype \/Form/);
    expect(text).toContain('(Reason: I agree with the contract ? M\xe4gi) Tj');
    expect(text).toContain('Digitally signed by Mari M\xe4gi');
    expect(await readFile(input)).toEqual(before);
  });

  it('signs an xref-stream PDF with object streams (qpdf) with ECDSA, invisible', async () => {
    const input = await writeObjectStreamPdf(join(dir, 'objstm.pdf'));
    expect((await readFile(input)).toString('latin1')).toContain('/ObjStm');
    const output = join(dir, 'objstm-signed.pdf');
    await sign(input, output, ec, { reason: 'Approved' });
    const { pdf } = await expectAllValid(output, 1);
    const tail = pdf.subarray((await stat(input)).size).toString('latin1');
    expect(tail).toContain('/Type /XRef');
    expect(tail).not.toContain('\nxref\n');
  });

  it('adds a second signature that keeps the first one valid (classic and xref-stream files)', async () => {
    for (const [name, make] of [['classic2', writeMinimalPdf], ['objstm2', writeObjectStreamPdf]] as const) {
      const input = await make(join(dir, `${name}.pdf`));
      await sign(input, join(dir, `${name}-1.pdf`), rsa, { reason: 'First', visible: true });
      await sign(join(dir, `${name}-1.pdf`), join(dir, `${name}-2.pdf`), ec, { reason: 'Second', visible: true });
      const { report, pdf } = await expectAllValid(join(dir, `${name}-2.pdf`), 2);
      const rects = [...pdf.toString('latin1').matchAll(/\/Subtype \/Widget[^]*?\/Rect \[([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)\]/g)].map((m) => m.slice(1).map(Number));
      expect(rects).toHaveLength(2);
      expect(rects[1]![1]).toBeGreaterThan(rects[0]![3]!);
      expect(report.signatures[0]!.totalDocumentSigned).toBe(false);
      expect(report.signatures[0]!.trusted).toBe(true);
      expect(report.signatures[0]!.text).toContain('Signature1');
      expect(report.signatures[1]!.text).toContain('Signature2');
    }
  });

  it('signs a form PDF with indirect /AcroForm, /Fields and /Annots and a field already named Signature1', async () => {
    const input = await writeFormPdf(join(dir, 'form.pdf'));
    await sign(input, join(dir, 'form-1.pdf'), rsa, { reason: 'Form', visible: true });
    await sign(join(dir, 'form-1.pdf'), join(dir, 'form-2.pdf'), ec, { reason: 'Form again', visible: true });
    const { report, pdf } = await expectAllValid(join(dir, 'form-2.pdf'), 2);
    expect(report.signatures.map((s) => /Signature Field Name: (\S+)/.exec(s.text)?.[1])).toEqual(['Signature2', 'Signature3']);
    const tail = pdf.subarray((await stat(input)).size).toString('latin1');
    expect(tail).toMatch(/\n8 0 obj\n\[11 0 R \d+ 0 R\]/);
    expect(tail).toMatch(/\n9 0 obj\n\[11 0 R \d+ 0 R\]/);
    expect(tail).toMatch(/\n7 0 obj\n<<[^>]*\/SigFlags 3/);
  });

  it('signs a PDF from a real producer (Chromium/Skia, no /ID) twice', async () => {
    const input = await writeChromiumPdf(join(dir, 'chromium.pdf'));
    expect((await readFile(input)).toString('latin1')).toContain('/Producer (Skia/PDF');
    await sign(input, join(dir, 'chromium-1.pdf'), ec, { reason: 'Employer', visible: true });
    await sign(join(dir, 'chromium-1.pdf'), join(dir, 'chromium-2.pdf'), rsa, { reason: 'Employee', visible: true });
    await expectAllValid(join(dir, 'chromium-2.pdf'), 2);
  });

  it('B-B without a timestamp authority carries no timestamp token', async () => {
    const input = await writeMinimalPdf(join(dir, 'bb.pdf'));
    await sign(input, join(dir, 'bb-signed.pdf'), ec, { timestamp: null });
    await expectAllValid(join(dir, 'bb-signed.pdf'), 1, false);
  });

  it('detects tampering: a flipped byte in the signed range fails pdfsig, openssl cms and BouncyCastle', async () => {
    const input = await writeMinimalPdf(join(dir, 'tamper.pdf'), 'Pay 100 EUR');
    const output = join(dir, 'tamper-signed.pdf');
    await sign(input, output, rsa, { reason: 'Pay' });
    const pdf = await readFile(output);
    const at = pdf.indexOf('Pay 100 EUR') + 4;
    pdf[at] = '9'.charCodeAt(0);
    const tampered = join(dir, 'tampered.pdf');
    await writeFile(tampered, pdf);
    const report = await pdfsig(nss, tampered);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]!.valid).toBe(false);
    const [e] = embeddedSignatures(pdf);
    expect((await opensslCmsVerify(e!.cms, e!.signedContent, rootPath)).code).not.toBe(0);
    const bc = await bouncyCastleCheck(e!.cms, e!.signedContent, rootPath, tsa.rootPath);
    expect(bc.code).not.toBe(0);
    const signed = await readFile(output);
    const startxref = signed.lastIndexOf('startxref\n') + 'startxref\n'.length;
    signed.write('0000', startxref, 'latin1');
    await writeFile(join(dir, 'broken-xref.pdf'), signed);
    expect((await qpdfCheck(join(dir, 'broken-xref.pdf'))).code).not.toBe(0);
    expect(bc.stdout + bc.stderr).toMatch(/FAIL cms signature|message-digest|digest/i);
  });

  it('the timestamp covers the signature value only: another value fails openssl ts -verify', async () => {
    const { embedded } = await expectAllValid(join(dir, 'classic-signed.pdf'), 1);
    const parts = cmsParts(embedded[0]!.cms);
    const other = Uint8Array.from(parts.signatureValue);
    other[0]! ^= 1;
    expect((await opensslTsVerify(other, parts.timestampToken!, tsa.rootPath)).code).not.toBe(0);
  });
});

describe('PAdES next to another signer (poppler pdfsig -add-signature)', () => {
  it('signs over a pdfsig signature, and pdfsig signs over ours: every signature stays valid', async () => {
    const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64')}\n-----END ${label}-----\n`;
    await writeFile(join(dir, 'other-key.pem'), pem('PRIVATE KEY', other.pkcs8));
    await writeFile(join(dir, 'other-cert.pem'), other.pem);
    const exec = promisify(execFile);
    await exec('openssl', ['pkcs12', '-export', '-in', join(dir, 'other-cert.pem'), '-inkey', join(dir, 'other-key.pem'), '-name', 'other', '-out', join(dir, 'other.p12'), '-passout', 'pass:x']);
    await exec('pk12util', ['-i', join(dir, 'other.p12'), '-d', `sql:${nss}`, '-W', 'x', '-K', '']);
    const popplerSign = (input: string, output: string) => run('pdfsig', ['-nssdir', `sql:${nss}`, '-add-signature', '-nick', 'other', '-reason', 'Poppler', input, output]);

    const input = await writeMinimalPdf(join(dir, 'poppler-first.pdf'));
    await popplerSign(input, join(dir, 'poppler-1.pdf'));
    await sign(join(dir, 'poppler-1.pdf'), join(dir, 'poppler-2.pdf'), rsa, { reason: 'Station', visible: true });
    const report = await pdfsig(nss, join(dir, 'poppler-2.pdf'));
    expect(report.signatures, report.output).toHaveLength(2);
    expect(report.signatures.every((s) => s.valid && s.trusted), report.output).toBe(true);
    expect(report.signatures[1]!.totalDocumentSigned).toBe(true);

    const objstm = await writeObjectStreamPdf(join(dir, 'station-first.pdf'));
    await sign(objstm, join(dir, 'station-1.pdf'), ec, { reason: 'Station' });
    await popplerSign(join(dir, 'station-1.pdf'), join(dir, 'station-2.pdf'));
    const report2 = await pdfsig(nss, join(dir, 'station-2.pdf'));
    expect(report2.signatures, report2.output).toHaveLength(2);
    expect(report2.signatures.every((s) => s.valid && s.trusted), report2.output).toBe(true);
  });
});

describe('PAdES two-step safety', () => {
  it('rejects a signature value that is not over the prepared data', async () => {
    const input = await writeMinimalPdf(join(dir, 'wrong-sig.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: rsa.der });
    const other = await softKeySigner(rsa.pkcs8)(new Uint8Array(32), 'SHA-256');
    await expect(PadesEngine.finish(prepared.state, other, { outputPath: join(dir, 'wrong-sig-out.pdf') })).rejects.toBeInstanceOf(SignatureValueInvalidError);
    const wrongKey = await softKeySigner(ec.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await expect(PadesEngine.finish(prepared.state, wrongKey, { outputPath: join(dir, 'wrong-sig-out.pdf') })).rejects.toBeInstanceOf(SignatureValueInvalidError);
    await expect(stat(join(dir, 'wrong-sig-out.pdf'))).rejects.toThrow();
  });

  it('accepts an ECDSA signature value in DER, as openssl pkeyutl makes it over the prepared hash', async () => {
    const input = await writeMinimalPdf(join(dir, 'der-ecdsa.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: ec.der, reason: 'DER' });
    await writeFile(join(dir, 'ec-key.pem'), `-----BEGIN PRIVATE KEY-----\n${Buffer.from(ec.pkcs8).toString('base64')}\n-----END PRIVATE KEY-----\n`);
    await writeFile(join(dir, 'der-ecdsa.hash'), Buffer.from(prepared.dataToSignDigest, 'hex'));
    await promisify(execFile)('openssl', ['pkeyutl', '-sign', '-inkey', join(dir, 'ec-key.pem'), '-in', join(dir, 'der-ecdsa.hash'), '-out', join(dir, 'der-ecdsa.sig')]);
    const der = new Uint8Array(await readFile(join(dir, 'der-ecdsa.sig')));
    expect(der[0]).toBe(0x30);
    await PadesEngine.finish(prepared.state, der, { outputPath: join(dir, 'der-ecdsa-signed.pdf'), timestampClient: tsa });
    await expectAllValid(join(dir, 'der-ecdsa-signed.pdf'), 1);
  });

  it('refuses a timestamp token that covers something else, and writes nothing', async () => {
    const input = await writeMinimalPdf(join(dir, 'foreign-token.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: rsa.der });
    const signature = await softKeySigner(rsa.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    const confused: TimestampClient = { timestamp: (_hash, algorithm) => tsa.timestamp(new Uint8Array(32).fill(7), algorithm) };
    await expect(PadesEngine.finish(prepared.state, signature, { outputPath: join(dir, 'foreign-token-out.pdf'), timestampClient: confused })).rejects.toBeInstanceOf(TimestampFailedError);
    await expect(stat(join(dir, 'foreign-token-out.pdf'))).rejects.toThrow();
  });

  it('refuses to finish when the document changed after prepare, leaving no output or temp file', async () => {
    const input = await writeMinimalPdf(join(dir, 'changing.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: rsa.der });
    const signature = await softKeySigner(rsa.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await writeMinimalPdf(input, 'Something else entirely');
    const out = join(dir, 'changing-out.pdf');
    await expect(PadesEngine.finish(prepared.state, signature, { outputPath: out })).rejects.toBeInstanceOf(DocumentChangedError);
    await expect(stat(out)).rejects.toThrow();
    expect((await readdir(dir)).filter((f) => f.includes('.partial'))).toEqual([]);
  });

  it('never overwrites an existing output, nor the input even when overwriting is allowed', async () => {
    const input = await writeMinimalPdf(join(dir, 'keep.pdf'));
    const existing = join(dir, 'keep-existing.pdf');
    await writeFile(existing, 'precious');
    await expect(sign(input, existing, rsa)).rejects.toBeInstanceOf(OutputExistsError);
    expect(await readFile(existing, 'utf8')).toBe('precious');
    const before = await readFile(input);
    const prepared = await PadesEngine.prepare(input, { certificate: rsa.der });
    const signature = await softKeySigner(rsa.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await expect(PadesEngine.finish(prepared.state, signature, { outputPath: input, overwrite: true })).rejects.toBeInstanceOf(OutputExistsError);
    expect(await readFile(input)).toEqual(before);
    await PadesEngine.finish(prepared.state, signature, { outputPath: existing, overwrite: true });
    await expectAllValid(existing, 1, false);
  });

  it('with the output path given to prepare, signs the bytes it hashed even if the input changes afterwards', async () => {
    const input = await writeMinimalPdf(join(dir, 'staged.pdf'), 'Staged original');
    const out = join(dir, 'staged-out.pdf');
    const prepared = await PadesEngine.prepare(input, { certificate: ec.der, outputPath: out, outputMode: 0o600 });
    expect((await readdir(dir)).filter((f) => f.startsWith('.staged-out.pdf.'))).toHaveLength(1);
    await writeMinimalPdf(input, 'Changed after prepare');
    const signature = await softKeySigner(ec.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), 'SHA-256');
    await expect(PadesEngine.finish(prepared.state, signature, { outputPath: join(dir, 'elsewhere.pdf') })).rejects.toBeInstanceOf(TypeError);
    await PadesEngine.finish(prepared.state, signature, { outputPath: out, timestampClient: tsa });
    const { pdf } = await expectAllValid(out, 1);
    expect(pdf.toString('latin1')).toContain('Staged original');
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('abort drops the staged copy; an existing output is refused already at prepare', async () => {
    const input = await writeMinimalPdf(join(dir, 'aborted.pdf'));
    const prepared = await PadesEngine.prepare(input, { certificate: rsa.der, outputPath: join(dir, 'aborted-out.pdf') });
    await PadesEngine.abort(prepared.state);
    expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
    await writeFile(join(dir, 'aborted-taken.pdf'), 'x');
    await expect(PadesEngine.prepare(input, { certificate: rsa.der, outputPath: join(dir, 'aborted-taken.pdf') })).rejects.toBeInstanceOf(OutputExistsError);
  });

  it('rejects what is not a PDF', async () => {
    await writeFile(join(dir, 'not.pdf'), 'hello');
    await expect(PadesEngine.prepare(join(dir, 'not.pdf'), { certificate: rsa.der })).rejects.toBeInstanceOf(UnsupportedDocumentError);
    await copyFile(join(dir, 'root.pem'), join(dir, 'root-copy.pdf'));
    await expect(PadesEngine.prepare(join(dir, 'root-copy.pdf'), { certificate: rsa.der })).rejects.toBeInstanceOf(UnsupportedDocumentError);
  });
});
