// Later revisions of a PDF for the verification tests, as another program would save them: an incremental update
// (ISO 32000-1 7.5.6) with the objects it writes again or anew, a classic cross-reference section and a trailer
// chained to the previous one by /Prev.
import { open, readFile, writeFile } from 'node:fs/promises';
import { PdfDocumentReader } from '../../../src/station/signing/pdf/pdf-document-reader.js';
import { PdfDict, PdfName, PdfRef, formatPdfValue, type PdfValue } from '../../../src/station/signing/pdf/pdf-object.js';

/** Objects of an update by number, each a PDF value's text; `next` is the first number not yet used. */
export type PdfUpdateObjects = (reader: PdfDocumentReader, next: number) => Promise<Record<number, string>>;

/** Appends one incremental update to the file at `path`. */
export async function appendPdfUpdate(path: string, objects: PdfUpdateObjects): Promise<void> {
  const file = await open(path, 'r');
  let written: Record<number, string>;
  let trailer: PdfDict;
  let startXref: number;
  try {
    const reader = await PdfDocumentReader.open(file, (await file.stat()).size);
    trailer = reader.trailer;
    startXref = reader.startXref;
    written = await objects(reader, trailer.get('Size') as number);
  } finally {
    await file.close();
  }
  const before = await readFile(path);
  let out = before.at(-1) === 0x0a ? '' : '\n';
  const offsets = new Map<number, number>();
  for (const [num, body] of Object.entries(written)) {
    offsets.set(Number(num), before.length + Buffer.byteLength(out, 'latin1'));
    out += `${num} 0 obj\n${body}\nendobj\n`;
  }
  const xref = before.length + Buffer.byteLength(out, 'latin1');
  out += 'xref\n';
  for (const [num, offset] of [...offsets].sort(([a], [b]) => a - b)) out += `${num} 1\n${String(offset).padStart(10, '0')} 00000 n\r\n`;
  const size = Math.max(trailer.get('Size') as number, ...offsets.keys()) + 1;
  out += `trailer\n<< /Size ${size} /Root ${formatPdfValue(trailer.get('Root')!)} /Prev ${startXref} >>\nstartxref\n${xref}\n%%EOF\n`;
  await writeFile(path, Buffer.concat([before, Buffer.from(out, 'latin1')]));
}

/** A dictionary object of the document with some entries set, as text for an update. */
export async function editedDict(reader: PdfDocumentReader, num: number, entries: Record<string, PdfValue>): Promise<string> {
  const dict = (await reader.object(num)).value as PdfDict;
  return formatPdfValue(new PdfDict([...dict.entries, ...Object.entries(entries)]));
}

export const ref = (num: number): PdfRef => new PdfRef(num, 0);
export const pdfName = (name: string): PdfName => new PdfName(name);
