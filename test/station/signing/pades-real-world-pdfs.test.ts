import { execFile } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { expectAllValid, signPdf, usePadesFixture } from '../../support/signing-pades-fixture.js';
import { writeCertifiedPdf, writeChromiumPdf, writeFormPdf, writeHybridXrefPdf } from '../../support/signing-test-pdfs.js';
import { displayedPage, inkCoveredByChange, textInRegion } from '../../support/pdf-region.js';
import { pdfsig, qpdfCheck } from '../../support/signing-validators.js';

const run = promisify(execFile);
const f = usePadesFixture();

/** qpdf rewrites of a Chromium (Skia) PDF, as documents arrive after passing through other tools. */
const variants: { name: string; qpdf: string[]; expect: RegExp }[] = [
  { name: 'linearized', qpdf: ['--linearize'], expect: /\/Linearized/ },
  { name: 'object-streams', qpdf: ['--object-streams=generate'], expect: /\/ObjStm/ },
  { name: 'pdf-2.0', qpdf: ['--force-version=2.0', '--object-streams=generate'], expect: /^%PDF-2\.0/ },
  { name: 'rotated-90-linearized', qpdf: ['--rotate=+90', '--linearize'], expect: /\/Rotate 90/ },
  // Turned a quarter left, the page's heading lands in the displayed bottom-left corner: the box must go elsewhere.
  { name: 'rotated-270', qpdf: ['--rotate=+270'], expect: /\/Rotate 270/ },
];

describe('PAdES on real-world PDFs', () => {
  for (const variant of variants) {
    for (const headerFooter of [false, true]) {
      const name = `${variant.name}${headerFooter ? '-with-print-footer' : ''}`;
      it(`${name}: signed visibly twice over no content, pdfsig and qpdf --check accept it, the text reads back`, async () => {
        const chromium = await writeChromiumPdf(join(f.dir, `${name}-source.pdf`), { headerFooter });
        const input = join(f.dir, `${name}.pdf`);
        await run('qpdf', [...variant.qpdf, chromium, input]);
        expect((await readFile(input)).toString('latin1')).toMatch(variant.expect);
        const first = join(f.dir, `${name}-1.pdf`);
        const output = join(f.dir, `${name}-2.pdf`);
        await signPdf(f, input, first, f.rsa, { visible: true, signerName: 'Іван Петренко', reason: 'Погоджено – “так”' });
        await signPdf(f, first, output, f.ec, { visible: true, reason: 'Second' });
        await expectAllValid(f, output, 2);
        const drawn = await inkCoveredByChange(input, output, 1);
        expect(drawn.changed).toBeGreaterThan(5000);
        expect(drawn.covered).toBe(0);
        const page = await displayedPage(output, 1);
        const text = (await textInRegion(output, 1, { x: 0, y: 0, width: page.width, height: page.height })).replace(/\s+/g, ' ');
        expect(text).toContain('Digitally signed by Іван Петренко');
        expect(text).toContain('Reason: Погоджено – “так”');
        expect(text).toContain('Reason: Second');
      });
    }
  }

  it('hybrid-reference file (classic table + /XRefStm, page in an object stream): signed, the update chains both', async () => {
    const input = await writeHybridXrefPdf(join(f.dir, 'hybrid.pdf'));
    expect((await qpdfCheck(input)).stdout).toContain('No syntax or stream encoding errors found');
    const output = join(f.dir, 'hybrid-signed.pdf');
    await signPdf(f, input, output, f.rsa, { visible: true, reason: 'Hybrid' });
    await expectAllValid(f, output, 1);
    const tail = (await readFile(output)).subarray((await stat(input)).size).toString('latin1');
    expect(tail).toMatch(/\n3 0 obj\n<<\/Type \/Page /);
    expect(tail).toContain('\nxref\n');
    expect((await textInRegion(output, 1, { x: 0, y: 692, width: 612, height: 100 })).replace(/\s+/g, ' ')).toContain('Reason: Hybrid');
  });

  it('AcroForm with existing fields: the new signature joins them, the fields stay', async () => {
    const input = await writeFormPdf(join(f.dir, 'acroform.pdf'));
    const output = join(f.dir, 'acroform-signed.pdf');
    await signPdf(f, input, output, f.rsa, { visible: true, reason: 'Form' });
    await expectAllValid(f, output, 1);
    const { stdout } = await run('qpdf', ['--json', '--json-key=acroform', output]);
    const fields = (JSON.parse(stdout) as { acroform: { fields: { fullname: string; fieldtype: string }[] } }).acroform.fields;
    expect(fields.map((field) => [field.fullname, field.fieldtype])).toEqual([
      ['Signature1', '/Tx'],
      ['Signature2', '/Sig'],
    ]);
  });

  it('certified with no changes permitted (DocMDP P=1): refused with a clear error, nothing written', async () => {
    const input = await writeCertifiedPdf(join(f.dir, 'certified-p1.pdf'), 1);
    const output = join(f.dir, 'certified-p1-signed.pdf');
    await expect(signPdf(f, input, output, f.rsa, { visible: true })).rejects.toMatchObject({
      code: 'ERR_SIGNING_CERTIFIED_NO_CHANGES',
      message: expect.stringContaining('DocMDP P=1'),
    });
    await expect(stat(output)).rejects.toThrow();
    expect((await readdir(f.dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('certified allowing form filling and signing (DocMDP P=2): signed, the certification stays first', async () => {
    const input = await writeCertifiedPdf(join(f.dir, 'certified-p2.pdf'), 2);
    const output = join(f.dir, 'certified-p2-signed.pdf');
    await signPdf(f, input, output, f.rsa, { visible: true, reason: 'Approved' });
    const structure = await qpdfCheck(output);
    expect(structure.stdout + structure.stderr).toContain('No syntax or stream encoding errors found');
    const report = await pdfsig(f.nss, output);
    const ours = report.signatures.find((s) => /Signature Field Name: Signature2/.test(s.text));
    expect(ours?.valid && ours.trusted && ours.totalDocumentSigned, report.output).toBe(true);
    expect((await readFile(output)).toString('latin1')).toContain('/Perms << /DocMDP 7 0 R >>');
  });
});
