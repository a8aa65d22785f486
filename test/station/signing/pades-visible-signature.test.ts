import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PadesEngine } from '../../../src/station/signing/pades-engine.js';
import { expectAllValid, signPdf, usePadesFixture } from '../../support/signing/signing-pades-fixture.js';
import { writePagePdf } from '../../support/signing/signing-test-pdfs.js';
import { pdfsig } from '../../support/signing/signing-validators.js';
import { displayedPage, inkCoveredByChange, inkInRegion, textInRegion, type Region } from '../../support/signing/pdf-region.js';

const f = usePadesFixture();

/**
 * Pages whose visible area does not start at (0,0) or is turned: each with a dark band along the top edge as the
 * page is displayed (its content), so the rest is free. `band` is that band in user space.
 */
const pages = [
  { name: 'plain', entries: '/MediaBox [0 0 612 792]', band: '0 732 612 60' },
  { name: 'offset-cropped', entries: '/MediaBox [100 200 800 1100] /CropBox [150 250 750 1050]', band: '150 990 600 60' },
  { name: 'rotated-90', entries: '/MediaBox [0 0 612 792] /Rotate 90', band: '0 0 60 792' },
  { name: 'rotated-180-negative-origin', entries: '/MediaBox [-300 -400 312 392] /Rotate 180', band: '-300 -400 612 60' },
  { name: 'rotated-270-cropped', entries: '/MediaBox [0 0 612 792] /CropBox [50 40 562 752] /Rotate 270', band: '502 40 60 712' },
  { name: 'rotate-minus-90-negative-origin', entries: '/MediaBox [-612 -792 0 0] /Rotate -90', band: '-60 -792 60 792' },
] as const;

const SIGNER = 'Jānis Bērziņš';
const REASON = 'Ąžuolas Čiurlionis, Łukasz, Γιώργος, Іван, Õie Ülle — agreed: 5 € – “final”';

/** The default box: bottom-left of the displayed page, 18 pt in; its height depends on the wrapped text. */
const defaultBox = (page: { height: number }, height: number): Region => ({ x: 18, y: page.height - 18 - height, width: 260, height });

describe('PAdES visible signature', () => {
  for (const page of pages) {
    it(`${page.name}: drawn upright inside the visible area where the page is empty, Unicode text extractable`, async () => {
      const input = await writePagePdf(join(f.dir, `${page.name}.pdf`), page.entries, `0.1 g ${page.band} re f`);
      const output = join(f.dir, `${page.name}-signed.pdf`);
      await signPdf(f, input, output, f.rsa, { visible: true, signerName: SIGNER, reason: REASON, timeZone: 'Europe/Riga', time: new Date('2026-07-01T09:30:00Z') });
      await expectAllValid(f, output, 1);

      const size = await displayedPage(output, 1);
      const box = defaultBox(size, 70);
      expect(await inkInRegion(input, 1, box)).toBe(0);
      expect(await inkInRegion(output, 1, box)).toBeGreaterThan(0.5);
      const text = (await textInRegion(output, 1, box)).replace(/\s+/g, ' ');
      expect(text).toContain(`Digitally signed by ${SIGNER}`);
      expect(text).toContain('Date: 2026-07-01 12:30:00 UTC+03:00');
      expect(text).toContain('Reason: Ąžuolas Čiurlionis, Łukasz, Γιώργος, Іван,');
      expect(text).toContain('5 € – “final”');
      // Upright: every line reads left to right in one row, not one glyph per row as sideways text would.
      expect(text).toContain('Digitally signed by');
      // Nothing of the signature outside the box: the rest of the bottom band stays empty.
      expect(await inkInRegion(output, 1, { x: 18, y: box.y - 10, width: 260, height: 9 })).toBe(0);
    });
  }

  it('finds free space: content over the whole left half and a text line along the bottom push the box to the free area', async () => {
    const content = '0.2 g 0 0 306 792 re f BT /F1 12 Tf 1 0 0 1 320 24 Tm (Page 1 of 1 - footer text along the bottom) Tj ET';
    const input = await writePagePdf(join(f.dir, 'busy.pdf'), '/MediaBox [0 0 612 792] /Rotate 180', content);
    const output = join(f.dir, 'busy-signed.pdf');
    await signPdf(f, input, output, f.ec, { visible: true, reason: 'Free space' });
    await expectAllValid(f, output, 1);
    const drawn = await inkCoveredByChange(input, output, 1);
    expect(drawn.changed).toBeGreaterThan(5000);
    expect(drawn.covered).toBe(0);
    expect((await textInRegion(output, 1, { x: 0, y: 0, width: 612, height: 792 })).replace(/\s+/g, ' ')).toContain('Reason: Free space');
  });

  it('writes its labels in the document’s signing language the signer chose, the signer’s name and reason as typed', async () => {
    const input = await writePagePdf(join(f.dir, 'russian.pdf'), '/MediaBox [0 0 612 792]', '');
    const output = join(f.dir, 'russian-signed.pdf');
    await signPdf(f, input, output, f.ec, { visible: true, reason: 'Согласовано', signerName: 'Анна Кузнецова', stampLanguage: 'ru' });
    await expectAllValid(f, output, 1);
    const text = (await textInRegion(output, 1, { x: 0, y: 0, width: 612, height: 792 })).replace(/\s+/g, ' ');
    expect(text).toContain('Подписано электронной подписью: Анна Кузнецова');
    expect(text).toMatch(/Дата: \d{4}-\d{2}-\d{2} /);
    expect(text).toContain('Причина: Согласовано');
    expect(text).not.toContain('Digitally signed by');
  });

  it('content it cannot read (a filter other than Flate) sends the box to the documented corner, even over content', async () => {
    const hex = `${Buffer.from('0.2 g 0 0 612 100 re f\n').toString('hex')}>`;
    const input = await writePagePdf(join(f.dir, 'hex-content.pdf'), '/MediaBox [0 0 612 792]', hex, '/Filter /ASCIIHexDecode');
    const output = join(f.dir, 'hex-content-signed.pdf');
    await signPdf(f, input, output, f.ec, { visible: true });
    // qpdf --check reads content streams and stumbles on this hand-written hex one, so pdfsig is the judge here.
    const report = await pdfsig(f.nss, output);
    expect(report.signatures[0]!.valid && report.signatures[0]!.trusted, report.output).toBe(true);
    // The corner holds content here (a band along the bottom): the box is drawn over it, where the docs say.
    expect((await textInRegion(output, 1, { x: 18, y: 792 - 18 - 40, width: 260, height: 40 })).replace(/\s+/g, ' ')).toContain('Digitally signed by');
  });

  it('text is at least 9 pt and the font is an embedded TrueType subset with a ToUnicode map', async () => {
    const output = join(f.dir, 'plain-signed.pdf');
    const tail = (await readFile(output)).toString('latin1');
    expect(tail).toMatch(/\/F1 9 Tf/);
    expect(tail).toMatch(/\/Subtype \/Type0 \/BaseFont \/[A-Z]{6}\+DejaVuSans \/Encoding \/Identity-H/);
    expect(tail).toMatch(/\/Subtype \/CIDFontType2[^]*\/CIDToGIDMap \/Identity/);
    expect(tail).toMatch(/\/FontFile2 \d+ 0 R/);
    expect(tail).toMatch(/\/ToUnicode \d+ 0 R/);
    const fonts = await import('node:child_process').then(({ execFileSync }) => execFileSync('pdffonts', [output]).toString());
    expect(fonts).toMatch(/[A-Z]{6}\+DejaVuSans\s+CID TrueType\s+Identity-H\s+yes yes yes/);
  });

  it('takes a page and a rectangle in displayed coordinates, and refuses ones that do not fit', async () => {
    const input = await writePagePdf(join(f.dir, 'rect.pdf'), '/MediaBox [0 0 612 792] /Rotate 90', '0.1 g 0 0 60 792 re f');
    const output = join(f.dir, 'rect-signed.pdf');
    const rect = { x: 400, y: 300, width: 300, height: 120 };
    await signPdf(f, input, output, f.ec, { visible: true, page: 1, rect, reason: 'Placed' });
    await expectAllValid(f, output, 1);
    const region: Region = { x: rect.x, y: 612 - rect.y - rect.height, width: rect.width, height: rect.height };
    expect(await inkInRegion(output, 1, region)).toBeGreaterThan(0.9);
    expect((await textInRegion(output, 1, region)).replace(/\s+/g, ' ')).toContain('Reason: Placed');

    const refuse = (options: Parameters<typeof PadesEngine.prepare>[1]) => PadesEngine.prepare(input, options);
    const base = { certificate: f.ec.der, visible: true };
    await expect(refuse({ ...base, rect: { x: 600, y: 300, width: 300, height: 120 } })).rejects.toMatchObject({ code: 'ERR_SIGNING_INVALID_PLACEMENT', message: expect.stringContaining('outside the visible page') });
    await expect(refuse({ ...base, rect: { x: 10, y: 10, width: 300, height: 12 } })).rejects.toMatchObject({ code: 'ERR_SIGNING_INVALID_PLACEMENT', message: expect.stringContaining('too small') });
    await expect(refuse({ ...base, page: 2 })).rejects.toMatchObject({ code: 'ERR_SIGNING_INVALID_PLACEMENT', message: expect.stringContaining('no page 2') });
  });
});
