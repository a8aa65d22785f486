import { randomBytes } from 'node:crypto';
import type { PdfDocumentReader } from './pdf-document-reader.js';
import { PdfDict, PdfName, PdfRef, PdfString, formatPdfValue, type PdfValue } from './pdf-object.js';

/**
 * The objects of one incremental update (ISO 32000-1 7.5.6) and their serialisation after the original file: the
 * objects, then a cross-reference section of the same kind as the newest one (table or stream) chained with /Prev.
 */
export class PdfUpdateObjects {
  private readonly bodies = new Map<number, { ref: PdfRef; body: string }>();
  private next: number;

  constructor(private readonly reader: PdfDocumentReader) {
    const size = reader.trailer.get('Size');
    this.next = typeof size === 'number' ? size : 0;
    for (const num of reader.entries.keys()) this.next = Math.max(this.next, num + 1);
  }

  allocate(): PdfRef {
    return new PdfRef(this.next++, 0);
  }

  /** Writes `value` (or a ready body such as a stream) as object `ref`, new or replacing an existing one. */
  set(ref: PdfRef, value: PdfValue | { body: string }): PdfRef {
    this.bodies.set(ref.num, { ref, body: value !== null && typeof value === 'object' && 'body' in value ? value.body : formatPdfValue(value) });
    return ref;
  }

  add(value: PdfValue | { body: string }): PdfRef {
    return this.set(this.allocate(), value);
  }

  /** The update as latin1 text, objects in the order they were first set. */
  serialise(): string {
    const base = this.reader.size;
    let text = '\n';
    const offsets = new Map<number, { offset: number; gen: number }>();
    for (const { ref, body } of this.bodies.values()) {
      offsets.set(ref.num, { offset: base + Buffer.byteLength(text, 'latin1'), gen: ref.gen });
      text += `${ref.num} ${ref.gen} obj\n${body}\nendobj\n`;
    }
    const xrefOffset = base + Buffer.byteLength(text, 'latin1');
    const trailer = this.trailer();
    text += this.reader.usesXrefStream ? this.xrefStream(offsets, xrefOffset, trailer) : this.xrefTable(offsets, trailer);
    return `${text}startxref\n${xrefOffset}\n%%EOF\n`;
  }

  private trailer(): PdfDict {
    const { trailer, startXref } = this.reader;
    const ids = trailer.get('ID');
    const firstId = Array.isArray(ids) && ids[0] instanceof PdfString ? ids[0] : new PdfString(randomBytes(16), true);
    const out = new PdfDict([['Root', trailer.get('Root')!]]);
    if (trailer.get('Info') instanceof PdfRef) out.set('Info', trailer.get('Info')!);
    out.set('ID', [firstId, new PdfString(randomBytes(16), true)]);
    out.set('Prev', startXref);
    return out;
  }

  private xrefStream(offsets: Map<number, { offset: number; gen: number }>, xrefOffset: number, trailer: PdfDict): string {
    const xrefNum = this.next++;
    offsets.set(xrefNum, { offset: xrefOffset, gen: 0 });
    const nums = [...offsets.keys()].sort((a, b) => a - b);
    const offsetWidth = Math.max(4, Math.ceil(Math.log2(xrefOffset + 1) / 8));
    const rowLength = 1 + offsetWidth + 2;
    const rows = Buffer.alloc(nums.length * rowLength);
    nums.forEach((num, i) => {
      const entry = offsets.get(num)!;
      rows[i * rowLength] = 1;
      rows.writeUIntBE(entry.offset, i * rowLength + 1, offsetWidth);
      rows.writeUInt16BE(entry.gen, i * rowLength + 1 + offsetWidth);
    });
    const xref = new PdfDict([
      ['Type', new PdfName('XRef')],
      ['Size', this.next],
      ['Index', nums.flatMap((n) => [n, 1])],
      ['W', [1, offsetWidth, 2]],
      ...trailer.entries,
      ['Length', rows.length],
    ]);
    return `${xrefNum} 0 obj\n${formatPdfValue(xref)}\nstream\n${rows.toString('latin1')}\nendstream\nendobj\n`;
  }

  private xrefTable(offsets: Map<number, { offset: number; gen: number }>, trailer: PdfDict): string {
    const nums = [...offsets.keys()].sort((a, b) => a - b);
    let text = 'xref\n';
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
    return `${text}trailer\n${formatPdfValue(new PdfDict([['Size', this.next], ...trailer.entries]))}\n`;
  }
}
