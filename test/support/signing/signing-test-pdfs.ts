// Test PDFs built in the test setup: a hand-written minimal PDF with a classic cross-reference table, and the same
// rewritten by qpdf with a cross-reference stream and object streams.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A PDF whose object N is `objects[N - 1]`, with a classic xref table (offsets computed exactly); 1 is the catalog. */
function pdfFromObjects(objects: string[], infoObject = 6): Buffer {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f\r\n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n\r\n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${infoObject} 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A one-page PDF with a classic xref table. */
export function minimalPdf(text = 'Signing Station test document'): Buffer {
  const content = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  return pdfFromObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Producer (Signing Station tests) >>',
  ]);
}

/**
 * A one-page Japanese PDF as older office suites and many public bodies write them: the font is not embedded, its
 * text is in a predefined CMap (UniJIS-UCS2-H, Adobe-Japan1), which a reader must load to know the glyphs. `text`
 * is written in UCS-2 big-endian, as that CMap reads it.
 */
export async function writePredefinedCmapPdf(path: string, text: string): Promise<string> {
  const codes = [...text].map((char) => char.codePointAt(0)!.toString(16).padStart(4, '0')).join('');
  const content = `BT /F1 48 Tf 72 600 Td <${codes}> Tj ET`;
  await writeFile(
    path,
    pdfFromObjects([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type0 /BaseFont /HeiseiMin-W3 /Encoding /UniJIS-UCS2-H /DescendantFonts [6 0 R] >>',
      '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /HeiseiMin-W3 /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 2 >> /FontDescriptor 7 0 R /DW 1000 >>',
      '<< /Type /FontDescriptor /FontName /HeiseiMin-W3 /Flags 6 /FontBBox [-123 -257 1001 910] /ItalicAngle 0 /Ascent 723 /Descent -241 /CapHeight 709 /StemV 69 >>',
      '<< /Producer (Signing Station tests) >>',
    ], 8),
  );
  return path;
}

/**
 * A form PDF as office suites write them: an indirect /AcroForm with an indirect /Fields array holding a text field
 * named Signature1, an indirect /Annots array on the page, and a two-level page tree.
 */
export async function writeFormPdf(path: string): Promise<string> {
  const content = 'BT /F1 18 Tf 72 720 Td (Form document) Tj ET';
  await writeFile(
    path,
    pdfFromObjects([
      '<< /Type /Catalog /Pages 2 0 R /AcroForm 7 0 R >>',
      '<< /Type /Pages /Kids [10 0 R] /Count 1 /MediaBox [0 0 595 842] >>',
      '<< /Type /Page /Parent 10 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots 9 0 R >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Producer (Signing Station tests) >>',
      '<< /Fields 8 0 R /DA (/Helv 0 Tf 0 g) >>',
      '[11 0 R]',
      '[11 0 R]',
      '<< /Type /Pages /Parent 2 0 R /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Annot /Subtype /Widget /FT /Tx /T (Signature1) /V (text) /Rect [300 700 500 720] /P 3 0 R >>',
    ]),
  );
  return path;
}

/**
 * A one-page PDF whose page has the given box and rotation entries (e.g. `/MediaBox [100 200 712 992] /Rotate 90`)
 * and text in a band along the top edge of the visible area as displayed, so the rest of the page is free.
 */
export async function writePagePdf(path: string, pageEntries: string, content: string, contentStreamEntries = ''): Promise<string> {
  await writeFile(
    path,
    pdfFromObjects([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R ${pageEntries} /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Producer (Signing Station tests) >>',
    ]),
  );
  return path;
}

/**
 * A PDF with one page per entry, each with its own box and rotation entries and content (Helvetica as /F1), for
 * documents whose pages differ: a preview must show each as a reader does.
 */
export async function writePagesPdf(path: string, pages: ReadonlyArray<{ entries: string; content: string }>): Promise<string> {
  const first = 5;
  const pageRefs = pages.map((_, index) => `${first + 2 * index} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageRefs}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Producer (Signing Station tests) >>',
    ...pages.flatMap((page, index) => [
      `<< /Type /Page /Parent 2 0 R ${page.entries} /Contents ${first + 2 * index + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      `<< /Length ${page.content.length} >>\nstream\n${page.content}\nendstream`,
    ]),
  ];
  await writeFile(path, pdfFromObjects(objects, 4));
  return path;
}

/**
 * A certified document (ISO 32000-1 12.8.2.2): /Perms /DocMDP names a certification signature whose DocMDP
 * transform allows `level` (1 no changes, 2 form filling and signing). The certification signature's /Contents is
 * empty: what matters here is the permission the station must honour, not that signature's own validity.
 */
export async function writeCertifiedPdf(path: string, level: 1 | 2): Promise<string> {
  const content = 'BT /F1 18 Tf 72 720 Td (Certified document) Tj ET';
  await writeFile(
    path,
    pdfFromObjects([
      '<< /Type /Catalog /Pages 2 0 R /Perms << /DocMDP 7 0 R >> /AcroForm << /Fields [8 0 R] /SigFlags 3 >> >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Annots [8 0 R] >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      '<< /Producer (Signing Station tests) >>',
      `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange [0 0 0 0] /Contents <00> /Reference [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P ${level} /V /1.2 >> >>] >>`,
      '<< /Type /Annot /Subtype /Widget /FT /Sig /T (Certification) /V 7 0 R /Rect [0 0 0 0] /P 3 0 R /F 132 >>',
    ]),
  );
  return path;
}

/**
 * A hybrid-reference file (ISO 32000-1 7.5.8.4), as Word writes them: the classic table lists the plain objects,
 * and its trailer's /XRefStm points at a cross-reference stream for the page, which lives in an object stream
 * (readers before PDF 1.5 never see it).
 */
export async function writeHybridXrefPdf(path: string): Promise<string> {
  const content = 'BT /F1 18 Tf 72 720 Td (Hybrid reference document) Tj ET';
  const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>';
  const objStm = `3 0 ${page}`;
  const first = '3 0 '.length;
  const plain = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    null,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Producer (Signing Station tests) >>',
    `<< /Type /ObjStm /N 1 /First ${first} /Length ${objStm.length} >>\nstream\n${objStm}\nendstream`,
  ];
  let out = '%PDF-1.5\n%\xe2\xe3\xcf\xd3\n';
  const offsets = new Map<number, number>();
  plain.forEach((body, i) => {
    if (body === null) return;
    offsets.set(i + 1, Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  // Object 8: the cross-reference stream, one row for object 3 (type 2: in object stream 7, index 0).
  const rows = Buffer.from([2, 0, 7, 0]);
  const xrefStm = Buffer.byteLength(out, 'latin1');
  out += `8 0 obj\n<< /Type /XRef /Size 9 /Index [3 1] /W [1 2 1] /Length ${rows.length} >>\nstream\n${rows.toString('latin1')}\nendstream\nendobj\n`;
  offsets.set(8, xrefStm);
  const xref = Buffer.byteLength(out, 'latin1');
  const line = (n: number): string => `${String(offsets.get(n)).padStart(10, '0')} 00000 n\r\n`;
  out += `xref\n0 3\n0000000000 65535 f\r\n${line(1)}${line(2)}4 5\n${[4, 5, 6, 7, 8].map(line).join('')}`;
  out += `trailer\n<< /Size 9 /Root 1 0 R /Info 6 0 R /XRefStm ${xrefStm} >>\nstartxref\n${xref}\n%%EOF\n`;
  await writeFile(path, Buffer.from(out, 'latin1'));
  return path;
}

export async function writeMinimalPdf(path: string, text?: string): Promise<string> {
  await writeFile(path, minimalPdf(text));
  return path;
}

/** The minimal PDF rewritten by qpdf with a cross-reference stream and the catalog and pages in object streams. */
export async function writeObjectStreamPdf(path: string): Promise<string> {
  const classic = `${path}.classic.pdf`;
  await writeMinimalPdf(classic, 'Object stream test document');
  await run('qpdf', ['--object-streams=generate', '--compress-streams=y', classic, path]);
  return path;
}

/**
 * A PDF of about `bytes` bytes, written in 1 MiB chunks: the minimal page plus an unreferenced-by-content but valid
 * stream object carrying the bulk (as scanned images do), classic xref.
 */
export async function writeBigPdf(path: string, bytes: number): Promise<string> {
  const { open } = await import('node:fs/promises');
  const { randomBytes } = await import('node:crypto');
  const file = await open(path, 'w');
  try {
    let offset = 0;
    const offsets: number[] = [];
    const write = async (data: Buffer | string): Promise<void> => {
      const buf = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
      await file.write(buf);
      offset += buf.length;
    };
    const content = 'BT /F1 18 Tf 72 720 Td (Big test document) Tj ET';
    await write('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
    const bulk = Math.max(0, bytes - 2048);
    const small = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> >>',
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ];
    for (const [i, body] of small.entries()) {
      offsets.push(offset);
      await write(`${i + 1} 0 obj\n${body}\nendobj\n`);
    }
    offsets.push(offset);
    await write(`6 0 obj\n<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${bulk} >>\nstream\n`);
    const chunk = randomBytes(1024 * 1024);
    for (let left = bulk; left > 0; left -= chunk.length) await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
    await write('\nendstream\nendobj\n');
    const xref = offset;
    let table = `xref\n0 7\n0000000000 65535 f\r\n`;
    for (const o of offsets) table += `${String(o).padStart(10, '0')} 00000 n\r\n`;
    await write(`${table}trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  } finally {
    await file.close();
  }
  return path;
}

/**
 * A PDF from a real producer: Chromium's print-to-PDF (Skia), with embedded fonts and no /ID; with its default
 * header and footer (date, title, URL, page number in the margins) unless `headerFooter` is false.
 */
export async function writeChromiumPdf(path: string, { headerFooter = true } = {}): Promise<string> {
  const html = '<h1>Employment contract</h1><p>The parties agree on the terms below. Õ Ä Ö Ü š ž</p>';
  await run('chromium', [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    ...(headerFooter ? [] : ['--no-pdf-header-footer']),
    `--print-to-pdf=${path}`,
    `data:text/html;charset=utf-8,${encodeURIComponent(html)}`,
  ]);
  return path;
}
