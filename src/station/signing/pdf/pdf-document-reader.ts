import type { FileHandle } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { UnsupportedDocumentError } from '../signing-errors.js';
import { PdfDict, PdfName, PdfRef, type PdfValue } from './pdf-object.js';
import { MAX_PDF_OBJECT_VALUES, PdfObjectParser } from './pdf-object-parser.js';
import { PdfXrefEntries } from './pdf-xref-entries.js';


export interface PdfObjectWithStream {
  value: PdfValue;
  stream?: Uint8Array;
}

const MAX_STRUCTURAL_STREAM = 64 * 1024 * 1024;
const READ_BLOCK = 256 * 1024;
/** More objects than any real document has; a cross-reference section claiming more is refused. */
export const MAX_PDF_OBJECTS = 8_000_000;
/** Byte width of one field of a cross-reference stream row (PDF uses at most 8 for offsets). */
const MAX_XREF_FIELD_WIDTH = 8;
const SCAN_CHUNK = 4 * 1024 * 1024;
const SCAN_OVERLAP = 64;
/** How many objects from the end of a damaged file are tried as its cross-reference stream. */
const MAX_SCANNED_XREF_STREAMS = 64;
/** An object header at the start of a line (or after another token's end): "12 0 obj". */
const OBJECT_HEADER = /(?<=^|[\s>])(\d{1,7})\s+\d{1,5}\s+obj\b/g;
const OVERSTATED_SUBSECTION = 'Malformed PDF: a cross-reference subsection announces more entries than it holds.';
const asInt = (v: PdfValue | undefined): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** An array of integers (/W, /Index), or a clear refusal. */
function integers(value: PdfValue | undefined, key: string): number[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'number' && Number.isSafeInteger(item))) {
    throw new UnsupportedDocumentError(`Malformed PDF: /${key} is not an array of integers.`);
  }
  return value as number[];
}

/**
 * Random access to the objects of a PDF on disk through its cross-reference data: classic tables, cross-reference
 * streams (PDF 1.5) and hybrid files, following /Prev through earlier incremental updates. Reads only what it is
 * asked for, so a 200 MB file costs a few small reads.
 */
export class PdfDocumentReader {
  readonly entries = new PdfXrefEntries(MAX_PDF_OBJECTS);
  /** The newest trailer (or cross-reference stream dictionary). */
  trailer = new PdfDict();
  /** Whether the newest section is a cross-reference stream: the update then writes one too. */
  usesXrefStream = false;
  startXref = 0;
  private readonly objectStreams = new Map<number, { offsets: Map<number, number>; data: Uint8Array }>();
  #objectStreamBytes = 0;
  #block: { position: number; bytes: Buffer } | undefined;

  private constructor(
    private readonly file: FileHandle,
    readonly size: number,
  ) {}

  /**
   * `readEncrypted` lets verification read an encrypted file: its signatures' /ByteRange and /Contents are never
   * encrypted (ISO 32000-1 7.6.1), so they verify; signing refuses it.
   */
  static async open(file: FileHandle, size: number, options: { readEncrypted?: boolean } = {}): Promise<PdfDocumentReader> {
    const reader = new PdfDocumentReader(file, size);
    await reader.readCrossReferences(options.readEncrypted ?? false);
    return reader;
  }

  /**
   * Verification's reading of a file whose cross-reference data is damaged (offsets that miss their objects): the
   * objects are found by scanning the file for their headers, a later one of the same number winning, and the
   * trailer is the last one that names a /Root (or the last cross-reference stream's dictionary), as common readers
   * recover such files. Signing never uses it.
   */
  static async recover(file: FileHandle, size: number): Promise<PdfDocumentReader> {
    const reader = new PdfDocumentReader(file, size);
    await reader.scanObjects();
    return reader;
  }

  private async read(position: number, length: number): Promise<Buffer> {
    // Offsets come from the file itself: one that is not a position in it is a malformed file, not a crash.
    if (!Number.isSafeInteger(position) || position < 0 || position > this.size || !Number.isSafeInteger(length)) {
      throw new UnsupportedDocumentError('Malformed PDF: an offset points outside the file.');
    }
    const wanted = Math.max(0, Math.min(length, this.size - position));
    const block = this.#block;
    if (block && position >= block.position && position + wanted <= block.position + block.bytes.length) {
      return block.bytes.subarray(position - block.position, position + wanted - block.position);
    }
    // Small reads come from one block read ahead: reading every object of a file one by one then costs a read per
    // block, not a read per object.
    const buf = Buffer.alloc(wanted <= READ_BLOCK / 4 ? Math.min(READ_BLOCK, this.size - position) : wanted);
    const { bytesRead } = await this.file.read(buf, 0, buf.length, position);
    if (buf.length > wanted) this.#block = { position, bytes: buf.subarray(0, bytesRead) };
    return buf.subarray(0, Math.min(wanted, bytesRead));
  }

  private async readCrossReferences(readEncrypted: boolean): Promise<void> {
    const head = await this.read(0, 1024);
    if (!head.toString('latin1').startsWith('%PDF-')) throw new UnsupportedDocumentError('Not a PDF file (no %PDF- header).');
    const tail = (await this.read(Math.max(0, this.size - 2048), 2048)).toString('latin1');
    const at = tail.lastIndexOf('startxref');
    const match = at >= 0 ? /^startxref\s+(\d+)/.exec(tail.slice(at)) : null;
    if (!match) throw new UnsupportedDocumentError('Malformed PDF: no startxref.');
    this.startXref = Number(match[1]);
    const visited = new Set<number>();
    let offset: number | undefined = this.startXref;
    let newest = true;
    while (offset !== undefined) {
      if (visited.has(offset) || offset >= this.size) throw new UnsupportedDocumentError('Malformed PDF: cross-reference chain is broken.');
      visited.add(offset);
      const section = await this.readSection(offset);
      if (newest) {
        this.trailer = section.trailer;
        this.usesXrefStream = section.isStream;
        newest = false;
      }
      const hybrid = asInt(section.trailer.get('XRefStm'));
      if (hybrid !== undefined && !section.isStream) await this.readSection(hybrid);
      offset = asInt(section.trailer.get('Prev'));
    }
    if (this.trailer.get('Encrypt') !== undefined && !readEncrypted) throw new UnsupportedDocumentError('Encrypted PDFs cannot be signed here.');
    if (!(this.trailer.get('Root') instanceof PdfRef)) throw new UnsupportedDocumentError('Malformed PDF: trailer has no /Root.');
  }

  private async scanObjects(): Promise<void> {
    const head = await this.read(0, 1024);
    if (!head.toString('latin1').startsWith('%PDF-')) throw new UnsupportedDocumentError('Not a PDF file (no %PDF- header).');
    const offsets: number[] = [];
    const trailers: number[] = [];
    for (let position = 0; position < this.size; position += SCAN_CHUNK) {
      // Each chunk is read with a small overlap so a header across its end is still seen, and counted once.
      const text = (await this.read(position, SCAN_CHUNK + SCAN_OVERLAP)).toString('latin1');
      for (const match of text.matchAll(OBJECT_HEADER)) {
        if (match.index >= SCAN_CHUNK) break;
        const num = Number(match[1]);
        this.assertObjectCount(num + 1);
        this.entries.set(num, { kind: 'offset', offset: position + match.index });
        offsets.push(position + match.index);
      }
      for (let at = text.indexOf('trailer'); at >= 0 && at < SCAN_CHUNK; at = text.indexOf('trailer', at + 1)) trailers.push(position + at);
    }
    for (const at of trailers.reverse()) {
      const buf = await this.read(at, 64 * 1024);
      if (!this.closesDictionary(buf, 0)) continue;
      const trailer = new PdfObjectParser(buf, 'trailer'.length).readValue();
      if (trailer instanceof PdfDict && trailer.get('Root') instanceof PdfRef) {
        this.trailer = trailer;
        return;
      }
    }
    for (const offset of offsets.reverse().slice(0, MAX_SCANNED_XREF_STREAMS)) {
      const { value } = await this.readObjectAt(offset, false).catch(() => ({ value: null }));
      if (value instanceof PdfDict && (value.get('Type') as PdfName | undefined)?.name === 'XRef' && value.get('Root') instanceof PdfRef) {
        this.trailer = value;
        return;
      }
    }
    throw new UnsupportedDocumentError('Malformed PDF: its cross-reference data is damaged and no trailer was found by scanning it.');
  }

  /**
   * Reads one cross-reference section; entries already known (from newer sections) win. An offset a few whitespace
   * bytes before `xref` is followed, as other readers do: some signing libraries (@signpdf) write it so.
   */
  private async readSection(offset: number): Promise<{ trailer: PdfDict; isStream: boolean }> {
    const probe = (await this.read(offset, 16)).toString('latin1');
    const lead = /^[\0\t\n\f\r ]*/.exec(probe)![0].length;
    return probe.startsWith('xref', lead) ? { trailer: await this.readXrefTable(offset + lead), isStream: false } : { trailer: await this.readXrefStream(offset), isStream: true };
  }

  /**
   * A classic `xref` table and its trailer, read in growing windows until the trailer dictionary closes. Entries are
   * read from the window's bytes one token at a time: a table of millions of entries is never split into an array.
   */
  private async readXrefTable(offset: number): Promise<PdfDict> {
    let length = 64 * 1024;
    for (;;) {
      const buf = await this.read(offset, length);
      const t = buf.indexOf('trailer', 0, 'latin1');
      if (t < 0 || !this.closesDictionary(buf, t)) {
        if (offset + length >= this.size) throw new UnsupportedDocumentError('Malformed PDF: cross-reference table without trailer.');
        length *= 4;
        continue;
      }
      let at = 4;
      const token = (): string | undefined => {
        while (at < t && buf[at]! <= 0x20) at++;
        const start = at;
        while (at < t && buf[at]! > 0x20) at++;
        return at > start ? buf.toString('latin1', start, at) : undefined;
      };
      for (let header = token(); header !== undefined; header = token()) {
        const first = Number(header);
        const count = Number(token());
        // An entry takes at least six bytes ("0 0 n "): a count the remaining bytes cannot hold is refused unread.
        if (!Number.isSafeInteger(first) || first < 0 || !Number.isSafeInteger(count) || count < 0 || count * 6 > t - at) throw new UnsupportedDocumentError(OVERSTATED_SUBSECTION);
        this.assertObjectCount(first + count);
        for (let k = 0; k < count; k++) {
          const [where, , type] = [token(), token(), token()];
          // A subsection header is trusted only as far as the entries it announces are really there.
          if (type === undefined) throw new UnsupportedDocumentError(OVERSTATED_SUBSECTION);
          if (!this.entries.has(first + k)) this.entries.set(first + k, type === 'n' ? { kind: 'offset', offset: Number(where) } : { kind: 'free' });
        }
      }
      const trailer = new PdfObjectParser(buf, t + 'trailer'.length).readValue();
      if (!(trailer instanceof PdfDict)) throw new UnsupportedDocumentError('Malformed PDF: trailer is not a dictionary.');
      return trailer;
    }
  }

  /** A cross-reference stream (PDF 1.5): its dictionary is the trailer. */
  private async readXrefStream(offset: number): Promise<PdfDict> {
    const { value, stream } = await this.readObjectAt(offset);
    if (!(value instanceof PdfDict) || !stream || (value.get('Type') as PdfName | undefined)?.name !== 'XRef') {
      throw new UnsupportedDocumentError('Malformed PDF: startxref points to neither a table nor a cross-reference stream.');
    }
    const [w0 = 1, w1 = 0, w2 = 0] = integers(value.get('W'), 'W');
    if ([w0, w1, w2].some((width) => width < 0 || width > MAX_XREF_FIELD_WIDTH)) throw new UnsupportedDocumentError('Malformed PDF: bad cross-reference stream field widths.');
    const rowLength = w0 + w1 + w2;
    if (rowLength === 0) throw new UnsupportedDocumentError('Malformed PDF: cross-reference stream rows are empty.');
    const index = value.get('Index') === undefined ? [0, asInt(value.get('Size')) ?? 0] : integers(value.get('Index'), 'Index');
    const data = this.decode(value, stream, rowLength);
    // /Index is trusted only as far as the stream really holds the rows it announces.
    let announced = 0;
    let highest = 0;
    for (let i = 0; i + 1 < index.length; i += 2) {
      if (index[i]! < 0 || index[i + 1]! < 0) throw new UnsupportedDocumentError('Malformed PDF: negative cross-reference /Index entry.');
      announced += index[i + 1]!;
      highest = Math.max(highest, index[i]! + index[i + 1]!);
    }
    if (announced * rowLength > data.length) throw new UnsupportedDocumentError('Malformed PDF: a cross-reference stream announces more entries than it holds.');
    this.assertObjectCount(highest);
    const field = (row: number, start: number, width: number, fallback: number): number => {
      if (width === 0) return fallback;
      let n = 0;
      for (let i = 0; i < width; i++) n = n * 256 + (data[row * rowLength + start + i] ?? 0);
      return n;
    };
    let row = 0;
    for (let i = 0; i + 1 < index.length; i += 2) {
      for (let k = 0; k < index[i + 1]!; k++, row++) {
        const num = index[i]! + k;
        if (this.entries.has(num)) continue;
        const type = field(row, 0, w0, 1);
        const a = field(row, w0, w1, 0);
        this.entries.set(num, type === 1 ? { kind: 'offset', offset: a } : type === 2 ? { kind: 'compressed', stream: a } : { kind: 'free' });
      }
    }
    return value;
  }

  private assertObjectCount(highestNumber: number): void {
    if (highestNumber > MAX_PDF_OBJECTS) throw new UnsupportedDocumentError(`Malformed PDF: more than ${MAX_PDF_OBJECTS} objects.`);
  }

  private closesDictionary(buf: Buffer, trailerAt: number): boolean {
    const parser = new PdfObjectParser(buf, trailerAt + 'trailer'.length);
    try {
      parser.readValue();
      return true;
    } catch {
      return false;
    }
  }

  /** FlateDecode (with PNG predictors, as cross-reference streams use them) or no filter. */
  private decode(dict: PdfDict, stream: Uint8Array, columns?: number): Uint8Array {
    const filter = dict.get('Filter');
    const filterName = Array.isArray(filter) ? (filter.length === 1 ? (filter[0] as PdfName).name : 'several') : (filter as PdfName | undefined)?.name;
    if (filterName === undefined) return stream;
    if (filterName !== 'FlateDecode') throw new UnsupportedDocumentError(`Unsupported stream filter ${filterName} in a structural stream.`);
    let inflated: Buffer;
    try {
      // Structural streams are small; a cap keeps a hostile file from inflating into gigabytes.
      inflated = inflateSync(stream, { maxOutputLength: MAX_STRUCTURAL_STREAM });
    } catch (cause) {
      throw new UnsupportedDocumentError(`Malformed PDF: a structural stream does not inflate: ${(cause as Error).message}`, { cause });
    }
    const parmsValue = dict.get('DecodeParms');
    const parms = Array.isArray(parmsValue) ? parmsValue[0] : parmsValue;
    const predictor = parms instanceof PdfDict ? (asInt(parms.get('Predictor')) ?? 1) : 1;
    if (predictor < 10) return inflated;
    const cols = parms instanceof PdfDict ? (asInt(parms.get('Columns')) ?? columns ?? 1) : (columns ?? 1);
    const out = Buffer.alloc(Math.floor(inflated.length / (cols + 1)) * cols);
    const prev = Buffer.alloc(cols);
    for (let r = 0; (r + 1) * (cols + 1) <= inflated.length; r++) {
      const type = inflated[r * (cols + 1)]!;
      const row = inflated.subarray(r * (cols + 1) + 1, (r + 1) * (cols + 1));
      for (let i = 0; i < cols; i++) {
        const left = i > 0 ? out[r * cols + i - 1]! : 0;
        const up = prev[i]!;
        const upLeft = i > 0 ? prev[i - 1]! : 0;
        let v = row[i]!;
        if (type === 1) v += left;
        else if (type === 2) v += up;
        else if (type === 3) v += (left + up) >> 1;
        else if (type === 4) {
          const p = left + up - upLeft;
          const pa = Math.abs(p - left);
          const pb = Math.abs(p - up);
          const pc = Math.abs(p - upLeft);
          v += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
        }
        out[r * cols + i] = v & 0xff;
      }
      out.copy(prev, 0, r * cols, (r + 1) * cols);
    }
    return out;
  }

  /**
   * `withStream` false reads only the object's value: a stream's indirect /Length is read that way, so a /Length
   * that points back at its own stream (or at any stream) cannot recurse.
   */
  private async readObjectAt(offset: number, withStream = true): Promise<PdfObjectWithStream> {
    let length = 4 * 1024;
    for (;;) {
      const buf = await this.read(offset, length);
      const parser = new PdfObjectParser(buf);
      try {
        parser.readObjectHeader();
        const value = parser.readValue();
        parser.skipWhitespace();
        if (parser.pos + 6 > buf.length && offset + buf.length < this.size) {
          // The "stream" keyword may lie just past the window.
          parser.exhausted = true;
          throw new UnsupportedDocumentError('Malformed PDF: an object runs past the end of the file.');
        }
        const keyword = Buffer.from(buf.subarray(parser.pos, parser.pos + 6)).toString('latin1');
        if (keyword !== 'stream' || !(value instanceof PdfDict) || !withStream) return { value };
        let start = parser.pos + 6;
        if (buf[start] === 0x0d) start++;
        if (buf[start] === 0x0a) start++;
        const lengthValue = value.get('Length');
        const streamLength = lengthValue instanceof PdfRef ? await this.#valueOnly(lengthValue) : lengthValue;
        if (typeof streamLength !== 'number' || !Number.isSafeInteger(streamLength) || streamLength < 0) {
          throw new UnsupportedDocumentError('Malformed PDF: stream without a valid /Length.');
        }
        return { value, stream: await this.read(offset + start, streamLength) };
      } catch (error) {
        // Only an object cut off by the window is read again, in a window four times larger (so all the attempts
        // together parse about a third more than the object); any other fault is final.
        if (!parser.exhausted || offset + buf.length >= this.size) throw error;
        length *= 4;
      }
    }
  }

  /** A stream's /Length object: a plain number at a file offset (object streams cannot hold it: ISO 32000-1 7.5.7). */
  async #valueOnly(ref: PdfRef): Promise<PdfValue> {
    const entry = this.entries.get(ref.num);
    return entry?.kind === 'offset' ? (await this.readObjectAt(entry.offset, false)).value : null;
  }

  /** The object `ref` points to (null when free or missing, as the PDF rules say). */
  async resolve(ref: PdfRef): Promise<PdfValue> {
    return (await this.object(ref.num)).value;
  }

  async object(num: number): Promise<PdfObjectWithStream> {
    const entry = this.entries.get(num);
    if (!entry || entry.kind === 'free') return { value: null };
    if (entry.kind === 'offset') return this.readObjectAt(entry.offset);
    let objectStream = this.objectStreams.get(entry.stream);
    if (!objectStream) {
      if (this.entries.get(entry.stream)?.kind !== 'offset') throw new UnsupportedDocumentError('Malformed PDF: an object stream inside an object stream.');
      const { value, stream } = await this.object(entry.stream);
      if (!(value instanceof PdfDict) || !stream) throw new UnsupportedDocumentError('Malformed PDF: bad object stream.');
      const data = this.decode(value, stream);
      const n = asInt(value.get('N')) ?? 0;
      const first = asInt(value.get('First')) ?? 0;
      if (first < 0 || first > data.length) throw new UnsupportedDocumentError('Malformed PDF: object stream /First is outside the stream.');
      const offsets = new Map<number, number>();
      // The index (object number, offset pairs) is read in place, one value at a time, and no longer than one object.
      const index = new PdfObjectParser(data.subarray(0, first));
      const listed = (): number => {
        index.skipWhitespace();
        const value = index.pos < first ? index.readValue() : undefined;
        if (typeof value !== 'number') throw new UnsupportedDocumentError('Malformed PDF: object stream /N announces more objects than it lists.');
        return value;
      };
      if (n < 0 || 2 * n > MAX_PDF_OBJECT_VALUES) throw new UnsupportedDocumentError('Malformed PDF: object stream /N announces more objects than it lists.');
      for (let i = 0; i < n; i++) offsets.set(listed(), first + listed());
      objectStream = { offsets, data };
      this.#keepObjectStream(entry.stream, objectStream);
    }
    const at = objectStream.offsets.get(num);
    if (at === undefined) return { value: null };
    return { value: new PdfObjectParser(objectStream.data, at).readValue() };
  }

  /**
   * Decoded object streams are kept for the next objects they hold, the most recent first, up to the size of one
   * large structural stream in all: a file of many large object streams cannot make the reader keep them all.
   */
  #keepObjectStream(num: number, objectStream: { offsets: Map<number, number>; data: Uint8Array }): void {
    this.objectStreams.set(num, objectStream);
    this.#objectStreamBytes += objectStream.data.length;
    // A map iterates in insertion order: the oldest go first.
    for (const [held, { data }] of this.objectStreams) {
      if (this.#objectStreamBytes <= MAX_STRUCTURAL_STREAM || held === num) break;
      this.objectStreams.delete(held);
      this.#objectStreamBytes -= data.length;
    }
  }

  /**
   * The decoded bytes of a stream object (no filter or FlateDecode), for reading a page's content; undefined for a
   * stream this reader cannot decode or that is not a stream.
   */
  async streamData(ref: PdfRef): Promise<Uint8Array | undefined> {
    const { value, stream } = await this.object(ref.num);
    if (!(value instanceof PdfDict) || !stream) return undefined;
    try {
      return this.decode(value, stream);
    } catch (error) {
      if (error instanceof UnsupportedDocumentError) return undefined;
      throw error;
    }
  }

  /** Follows references until a direct value. */
  async direct(value: PdfValue | undefined): Promise<PdfValue | undefined> {
    let v = value;
    for (let hops = 0; v instanceof PdfRef && hops < 32; hops++) v = await this.resolve(v);
    return v;
  }
}
