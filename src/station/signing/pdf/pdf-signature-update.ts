import { randomBytes } from 'node:crypto';
import { UnsupportedDocumentError } from '../signing-errors.js';
import type { PdfDocumentReader } from './pdf-document-reader.js';
import { PdfDict, PdfName, PdfRaw, PdfRef, PdfString, formatPdfValue, type PdfValue } from './pdf-object.js';
import { APPEARANCE_WIDTH, signatureAppearance } from './pdf-signature-appearance.js';

export interface SignatureUpdateOptions {
  signerName: string;
  time: Date;
  reason?: string;
  visible: boolean;
  /** Bytes reserved for the CMS; the file holds twice as many hex digits. */
  contentsSize: number;
}

export interface PdfSignatureUpdate {
  /** Bytes appended after the original file; the /Contents hole is zero-filled. */
  tail: Buffer;
  /** Offsets in `tail` of the hole: from '<' to just after '>'. */
  contentsStart: number;
  contentsEnd: number;
  byteRange: [number, number, number, number];
}

const BYTE_RANGE_PLACEHOLDER = `[0 ${'9'.repeat(10)} ${'9'.repeat(10)} ${'9'.repeat(10)}]`;
const name = (n: string): PdfName => new PdfName(n);

function pdfDate(time: Date): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `D:${p(time.getUTCFullYear(), 4)}${p(time.getUTCMonth() + 1)}${p(time.getUTCDate())}${p(time.getUTCHours())}${p(time.getUTCMinutes())}${p(time.getUTCSeconds())}+00'00'`;
}

function copyDict(value: PdfValue | undefined, what: string): PdfDict {
  if (!(value instanceof PdfDict)) throw new UnsupportedDocumentError(`Malformed PDF: ${what} is not a dictionary.`);
  return new PdfDict(value.entries);
}

/**
 * Builds the incremental update (ISO 32000-1 7.5.6) that adds one signature field to a PDF: signature dictionary,
 * widget (visible or not) on the first page, the page and AcroForm rewritten to reference it, and a
 * cross-reference section of the same kind as the newest one (table or stream) chained with /Prev. Earlier bytes are
 * never touched, which is what keeps earlier signatures valid.
 *
 * Written by hand because no maintained JavaScript PDF library appends an update to a file on disk without loading
 * and re-serialising the whole document (which breaks earlier signatures and does not stream big files).
 */
export async function buildSignatureUpdate(reader: PdfDocumentReader, options: SignatureUpdateOptions): Promise<PdfSignatureUpdate> {
  const { trailer } = reader;
  const rootRef = trailer.get('Root') as PdfRef;
  const catalog = copyDict(await reader.resolve(rootRef), 'the catalog');

  let pageRef: PdfRef | undefined;
  let node = catalog.get('Pages');
  for (let depth = 0; depth < 64 && node instanceof PdfRef; depth++) {
    const dict = await reader.resolve(node);
    if (!(dict instanceof PdfDict)) break;
    if ((dict.get('Type') as PdfName | undefined)?.name === 'Page') {
      pageRef = node;
      break;
    }
    const kids = await reader.direct(dict.get('Kids'));
    node = Array.isArray(kids) ? kids[0] : undefined;
  }
  if (!pageRef) throw new UnsupportedDocumentError('Malformed PDF: no page found.');
  const page = copyDict(await reader.resolve(pageRef), 'the first page');

  const acroFormValue = catalog.get('AcroForm');
  const acroFormRef = acroFormValue instanceof PdfRef ? acroFormValue : undefined;
  const acroForm = acroFormValue === undefined ? new PdfDict() : copyDict(await reader.direct(acroFormValue), 'the AcroForm');
  const fieldsValue = acroForm.get('Fields');
  const fieldsRef = fieldsValue instanceof PdfRef ? fieldsValue : undefined;
  const fields = ((await reader.direct(fieldsValue)) as PdfValue[] | undefined) ?? [];
  const fieldNames = new Set<string>();
  let signatureFields = 0;
  // Visible signatures stack upwards from the bottom-left corner: the next one goes above the highest so far.
  let stackTop = 30;
  for (const field of Array.isArray(fields) ? fields : []) {
    const dict = await reader.direct(field);
    if (!(dict instanceof PdfDict)) continue;
    const t = dict.get('T');
    if (t instanceof PdfString) fieldNames.add(Buffer.from(t.bytes).toString('latin1'));
    if ((dict.get('FT') as PdfName | undefined)?.name !== 'Sig') continue;
    signatureFields++;
    const rect = await reader.direct(dict.get('Rect'));
    if (Array.isArray(rect) && typeof rect[1] === 'number' && typeof rect[3] === 'number' && rect[3] > rect[1]) stackTop = Math.max(stackTop, rect[3]);
  }
  let fieldName = '';
  for (let i = signatureFields + 1; !fieldName || fieldNames.has(fieldName); i++) fieldName = `Signature${i}`;

  const size = typeof trailer.get('Size') === 'number' ? (trailer.get('Size') as number) : 0;
  let next = size;
  for (const num of reader.entries.keys()) next = Math.max(next, num + 1);
  const sigRef = new PdfRef(next++, 0);
  const widgetRef = new PdfRef(next++, 0);
  const objects: { ref: PdfRef; body: string }[] = [];

  const sig = new PdfDict([
    ['Type', name('Sig')],
    ['Filter', name('Adobe.PPKLite')],
    ['SubFilter', name('ETSI.CAdES.detached')],
    ['ByteRange', new PdfRaw(BYTE_RANGE_PLACEHOLDER)],
    ['Contents', new PdfRaw(`<${'0'.repeat(options.contentsSize * 2)}>`)],
    ['M', new PdfString(Buffer.from(pdfDate(options.time), 'latin1'))],
    ['Name', PdfString.text(options.signerName)],
  ]);
  if (options.reason !== undefined) sig.set('Reason', PdfString.text(options.reason));
  objects.push({ ref: sigRef, body: formatPdfValue(sig) });

  const widget = new PdfDict([
    ['Type', name('Annot')],
    ['Subtype', name('Widget')],
    ['FT', name('Sig')],
    ['T', PdfString.text(fieldName)],
    ['V', sigRef],
    ['P', pageRef],
    ['F', 132],
  ]);
  if (options.visible) {
    const appearance = signatureAppearance({ signer: options.signerName, time: options.time, ...(options.reason ? { reason: options.reason } : {}) });
    const apRef = new PdfRef(next++, 0);
    const y = stackTop + 6;
    widget.set('Rect', [36, y, 36 + APPEARANCE_WIDTH, y + appearance.height]);
    widget.set('AP', new PdfDict([['N', apRef]]));
    const font = new PdfDict([
      ['Type', name('Font')],
      ['Subtype', name('Type1')],
      ['BaseFont', name('Helvetica')],
      ['Encoding', name('WinAnsiEncoding')],
    ]);
    const form = new PdfDict([
      ['Type', name('XObject')],
      ['Subtype', name('Form')],
      ['BBox', [0, 0, APPEARANCE_WIDTH, appearance.height]],
      ['Resources', new PdfDict([['Font', new PdfDict([['F1', font]])]])],
      ['Length', Buffer.byteLength(appearance.content, 'latin1')],
    ]);
    objects.push({ ref: apRef, body: `${formatPdfValue(form)}\nstream\n${appearance.content}\nendstream` });
  } else {
    widget.set('Rect', [0, 0, 0, 0]);
  }
  objects.push({ ref: widgetRef, body: formatPdfValue(widget) });

  const annots = page.get('Annots');
  if (annots instanceof PdfRef) {
    const existing = await reader.resolve(annots);
    objects.push({ ref: annots, body: formatPdfValue([...(Array.isArray(existing) ? existing : []), widgetRef]) });
  } else {
    page.set('Annots', [...(Array.isArray(annots) ? annots : []), widgetRef]);
    objects.push({ ref: pageRef, body: formatPdfValue(page) });
  }

  if (fieldsRef) objects.push({ ref: fieldsRef, body: formatPdfValue([...(Array.isArray(fields) ? fields : []), widgetRef]) });
  else acroForm.set('Fields', [...(Array.isArray(fields) ? fields : []), widgetRef]);
  acroForm.set('SigFlags', 3);
  if (acroFormRef) objects.push({ ref: acroFormRef, body: formatPdfValue(acroForm) });
  else {
    catalog.set('AcroForm', acroForm);
    objects.push({ ref: rootRef, body: formatPdfValue(catalog) });
  }

  const base = reader.size;
  let text = '\n';
  const offsets = new Map<number, { offset: number; gen: number }>();
  for (const { ref, body } of objects) {
    offsets.set(ref.num, { offset: base + Buffer.byteLength(text, 'latin1'), gen: ref.gen });
    text += `${ref.num} ${ref.gen} obj\n${body}\nendobj\n`;
  }

  const ids = trailer.get('ID');
  const firstId = Array.isArray(ids) && ids[0] instanceof PdfString ? ids[0] : new PdfString(randomBytes(16), true);
  const newTrailer = new PdfDict([['Root', rootRef]]);
  if (trailer.get('Info') instanceof PdfRef) newTrailer.set('Info', trailer.get('Info')!);
  newTrailer.set('ID', [firstId, new PdfString(randomBytes(16), true)]);
  newTrailer.set('Prev', reader.startXref);

  const xrefOffset = base + Buffer.byteLength(text, 'latin1');
  if (reader.usesXrefStream) {
    const xrefNum = next++;
    offsets.set(xrefNum, { offset: xrefOffset, gen: 0 });
    const nums = [...offsets.keys()].sort((a, b) => a - b);
    const offsetWidth = Math.max(4, Math.ceil(Math.log2(xrefOffset + 1) / 8));
    const rows = Buffer.alloc(nums.length * (1 + offsetWidth + 2));
    nums.forEach((num, i) => {
      const entry = offsets.get(num)!;
      const at = i * (1 + offsetWidth + 2);
      rows[at] = 1;
      rows.writeUIntBE(entry.offset, at + 1, offsetWidth);
      rows.writeUInt16BE(entry.gen, at + 1 + offsetWidth);
    });
    const xref = new PdfDict([
      ['Type', name('XRef')],
      ['Size', next],
      ['Index', nums.flatMap((n) => [n, 1])],
      ['W', [1, offsetWidth, 2]],
      ...newTrailer.entries,
      ['Length', rows.length],
    ]);
    text += `${xrefNum} 0 obj\n${formatPdfValue(xref)}\nstream\n${rows.toString('latin1')}\nendstream\nendobj\n`;
  } else {
    const nums = [...offsets.keys()].sort((a, b) => a - b);
    text += 'xref\n';
    for (let i = 0; i < nums.length; ) {
      let j = i;
      while (j + 1 < nums.length && nums[j + 1] === nums[j]! + 1) j++;
      text += `${nums[i]} ${j - i + 1}\n`;
      for (let k = i; k <= j; k++) {
        const entry = offsets.get(nums[k]!)!;
        text += `${String(entry.offset).padStart(10, '0')} ${String(entry.gen).padStart(5, '0')} n\r\n`;
      }
      i = j + 1;
    }
    newTrailer.entries.delete('Size');
    text += `trailer\n${formatPdfValue(new PdfDict([['Size', next], ...newTrailer.entries]))}\n`;
  }
  text += `startxref\n${xrefOffset}\n%%EOF\n`;

  const contentsStart = text.indexOf('/Contents <') + '/Contents '.length;
  const contentsEnd = text.indexOf('>', contentsStart) + 1;
  const total = base + Buffer.byteLength(text, 'latin1');
  const byteRange: [number, number, number, number] = [0, base + contentsStart, base + contentsEnd, total - (base + contentsEnd)];
  const byteRangeText = `[${byteRange.join(' ')}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' ');
  if (byteRangeText.length > BYTE_RANGE_PLACEHOLDER.length) throw new UnsupportedDocumentError('The PDF is too large to sign.');
  text = text.replace(BYTE_RANGE_PLACEHOLDER, byteRangeText);
  return { tail: Buffer.from(text, 'latin1'), contentsStart, contentsEnd, byteRange };
}
