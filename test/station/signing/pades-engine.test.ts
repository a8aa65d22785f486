import { readFile, stat, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAllValid as expectAllValidIn, signPdf, usePadesFixture, type TestSigner } from '../../support/signing-pades-fixture.js';
import { writeChromiumPdf, writeFormPdf, writeMinimalPdf, writeObjectStreamPdf } from '../../support/signing-test-pdfs.js';
import { textInRegion } from '../../support/pdf-region.js';
import { bouncyCastleCheck, cmsParts, embeddedSignatures, opensslCmsVerify, opensslTsVerify, pdfsig, qpdfCheck, run } from '../../support/signing-validators.js';

const f = usePadesFixture();
const sign = (input: string, output: string, signer: TestSigner, options?: Parameters<typeof signPdf>[4]) => signPdf(f, input, output, signer, options);
const expectAllValid = (file: string, count: number, timestamped = true) => expectAllValidIn(f, file, count, timestamped);

describe('PAdES B-T', () => {
  it('signs a classic-xref PDF with RSA: visible, with reason, timestamped; every validator agrees', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'classic.pdf'));
    const before = await readFile(input);
    const output = join(f.dir, 'classic-signed.pdf');
    await sign(input, output, f.rsa, { reason: 'I agree with the contract — Mägi', visible: true });
    const { pdf } = await expectAllValid(output, 1);
    expect(pdf.subarray(0, before.length).equals(before)).toBe(true);
    const text = pdf.toString('latin1');
    expect(text).toContain('/Reason <feff');
    expect(Buffer.from(/\/Reason <([0-9a-f]+)>/.exec(text)![1]!, 'hex').subarray(2).swap16().toString('utf16le')).toBe('I agree with the contract — Mägi');
    expect(text).toMatch(/\/Subtype \/Form/);
    const shown = (await textInRegion(output, 1, { x: 0, y: 692, width: 612, height: 100 })).replace(/\s+/g, ' ');
    expect(shown).toContain('Reason: I agree with the contract — Mägi');
    expect(shown).toContain('Digitally signed by Mari Mägi');
    expect(await readFile(input)).toEqual(before);
  });

  it('signs an xref-stream PDF with object streams (qpdf) with ECDSA, invisible', async () => {
    const input = await writeObjectStreamPdf(join(f.dir, 'objstm.pdf'));
    expect((await readFile(input)).toString('latin1')).toContain('/ObjStm');
    const output = join(f.dir, 'objstm-signed.pdf');
    await sign(input, output, f.ec, { reason: 'Approved' });
    const { pdf } = await expectAllValid(output, 1);
    const tail = pdf.subarray((await stat(input)).size).toString('latin1');
    expect(tail).toContain('/Type /XRef');
    expect(tail).not.toContain('\nxref\n');
  });

  it('adds a second signature that keeps the first one valid (classic and xref-stream files)', async () => {
    for (const [name, make] of [['classic2', writeMinimalPdf], ['objstm2', writeObjectStreamPdf]] as const) {
      const input = await make(join(f.dir, `${name}.pdf`));
      await sign(input, join(f.dir, `${name}-1.pdf`), f.rsa, { reason: 'First', visible: true });
      await sign(join(f.dir, `${name}-1.pdf`), join(f.dir, `${name}-2.pdf`), f.ec, { reason: 'Second', visible: true });
      const { report, pdf } = await expectAllValid(join(f.dir, `${name}-2.pdf`), 2);
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
    const input = await writeFormPdf(join(f.dir, 'form.pdf'));
    await sign(input, join(f.dir, 'form-1.pdf'), f.rsa, { reason: 'Form', visible: true });
    await sign(join(f.dir, 'form-1.pdf'), join(f.dir, 'form-2.pdf'), f.ec, { reason: 'Form again', visible: true });
    const { report, pdf } = await expectAllValid(join(f.dir, 'form-2.pdf'), 2);
    expect(report.signatures.map((s) => /Signature Field Name: (\S+)/.exec(s.text)?.[1])).toEqual(['Signature2', 'Signature3']);
    const tail = pdf.subarray((await stat(input)).size).toString('latin1');
    expect(tail).toMatch(/\n8 0 obj\n\[11 0 R \d+ 0 R\]/);
    expect(tail).toMatch(/\n9 0 obj\n\[11 0 R \d+ 0 R\]/);
    expect(tail).toMatch(/\n7 0 obj\n<<[^>]*\/SigFlags 3/);
  });

  it('signs a PDF from a real producer (Chromium/Skia, no /ID) twice', async () => {
    const input = await writeChromiumPdf(join(f.dir, 'chromium.pdf'));
    expect((await readFile(input)).toString('latin1')).toContain('/Producer (Skia/PDF');
    await sign(input, join(f.dir, 'chromium-1.pdf'), f.ec, { reason: 'Employer', visible: true });
    await sign(join(f.dir, 'chromium-1.pdf'), join(f.dir, 'chromium-2.pdf'), f.rsa, { reason: 'Employee', visible: true });
    await expectAllValid(join(f.dir, 'chromium-2.pdf'), 2);
  });

  it('B-B without a timestamp authority carries no timestamp token', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'bb.pdf'));
    await sign(input, join(f.dir, 'bb-signed.pdf'), f.ec, { timestamp: null });
    await expectAllValid(join(f.dir, 'bb-signed.pdf'), 1, false);
  });

  it('detects tampering: a flipped byte in the signed range fails pdfsig, openssl cms and BouncyCastle', async () => {
    const input = await writeMinimalPdf(join(f.dir, 'tamper.pdf'), 'Pay 100 EUR');
    const output = join(f.dir, 'tamper-signed.pdf');
    await sign(input, output, f.rsa, { reason: 'Pay' });
    const pdf = await readFile(output);
    const at = pdf.indexOf('Pay 100 EUR') + 4;
    pdf[at] = '9'.charCodeAt(0);
    const tampered = join(f.dir, 'tampered.pdf');
    await writeFile(tampered, pdf);
    const report = await pdfsig(f.nss, tampered);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]!.valid).toBe(false);
    const [e] = embeddedSignatures(pdf);
    expect((await opensslCmsVerify(e!.cms, e!.signedContent, f.rootPath)).code).not.toBe(0);
    const bc = await bouncyCastleCheck(e!.cms, e!.signedContent, f.rootPath, f.tsa.rootPath);
    expect(bc.code).not.toBe(0);
    const signed = await readFile(output);
    const startxref = signed.lastIndexOf('startxref\n') + 'startxref\n'.length;
    signed.write('0000', startxref, 'latin1');
    await writeFile(join(f.dir, 'broken-xref.pdf'), signed);
    expect((await qpdfCheck(join(f.dir, 'broken-xref.pdf'))).code).not.toBe(0);
    expect(bc.stdout + bc.stderr).toMatch(/FAIL cms signature|message-digest|digest/i);
  });

  it('the timestamp covers the signature value only: another value fails openssl ts -verify', async () => {
    const { embedded } = await expectAllValid(join(f.dir, 'classic-signed.pdf'), 1);
    const parts = cmsParts(embedded[0]!.cms);
    const changed = Uint8Array.from(parts.signatureValue);
    changed[0]! ^= 1;
    expect((await opensslTsVerify(changed, parts.timestampToken!, f.tsa.rootPath)).code).not.toBe(0);
  });
});

describe('PAdES next to another signer (poppler pdfsig -add-signature)', () => {
  it('signs over a pdfsig signature, and pdfsig signs over ours: every signature stays valid', async () => {
    const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64')}\n-----END ${label}-----\n`;
    await writeFile(join(f.dir, 'other-key.pem'), pem('PRIVATE KEY', f.other.pkcs8));
    await writeFile(join(f.dir, 'other-cert.pem'), f.other.pem);
    const exec = promisify(execFile);
    await exec('openssl', ['pkcs12', '-export', '-in', join(f.dir, 'other-cert.pem'), '-inkey', join(f.dir, 'other-key.pem'), '-name', 'other', '-out', join(f.dir, 'other.p12'), '-passout', 'pass:x']);
    await exec('pk12util', ['-i', join(f.dir, 'other.p12'), '-d', `sql:${f.nss}`, '-W', 'x', '-K', '']);
    const popplerSign = (input: string, output: string) => run('pdfsig', ['-nssdir', `sql:${f.nss}`, '-add-signature', '-nick', 'other', '-reason', 'Poppler', input, output]);

    const input = await writeMinimalPdf(join(f.dir, 'poppler-first.pdf'));
    await popplerSign(input, join(f.dir, 'poppler-1.pdf'));
    await sign(join(f.dir, 'poppler-1.pdf'), join(f.dir, 'poppler-2.pdf'), f.rsa, { reason: 'Station', visible: true });
    const report = await pdfsig(f.nss, join(f.dir, 'poppler-2.pdf'));
    expect(report.signatures, report.output).toHaveLength(2);
    expect(report.signatures.every((s) => s.valid && s.trusted), report.output).toBe(true);
    expect(report.signatures[1]!.totalDocumentSigned).toBe(true);

    const objstm = await writeObjectStreamPdf(join(f.dir, 'station-first.pdf'));
    await sign(objstm, join(f.dir, 'station-1.pdf'), f.ec, { reason: 'Station' });
    await popplerSign(join(f.dir, 'station-1.pdf'), join(f.dir, 'station-2.pdf'));
    const report2 = await pdfsig(f.nss, join(f.dir, 'station-2.pdf'));
    expect(report2.signatures, report2.output).toHaveLength(2);
    expect(report2.signatures.every((s) => s.valid && s.trusted), report2.output).toBe(true);
  });
});

