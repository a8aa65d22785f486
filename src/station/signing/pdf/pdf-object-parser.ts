import { PdfDict, PdfName, PdfRaw, PdfRef, PdfString, type PdfValue } from './pdf-object.js';
import { UnsupportedDocumentError } from '../signing-errors.js';

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
/** Arrays and dictionaries nested deeper than this are refused: real files nest a handful of levels. */
export const MAX_PDF_NESTING = 64;
/**
 * Values in one object (every number, name, string, key, array and dictionary counts one). An object is held in
 * memory whole while it is used, so this bounds what one object can cost; real files stay far below it.
 */
export const MAX_PDF_OBJECT_VALUES = 500_000;

/** Reads PDF objects (ISO 32000-1 7.3) from a byte buffer, starting at `pos`. */
export class PdfObjectParser {
  pos: number;
  /** Set when reading stopped at the end of `buf`: the object may continue past it (the caller reads more). */
  exhausted = false;
  #depth = 0;
  #values = 0;
  constructor(
    readonly buf: Uint8Array,
    pos = 0,
  ) {
    this.pos = pos;
  }

  private fail(what: string): never {
    throw new UnsupportedDocumentError(`Malformed PDF: ${what} near byte ${this.pos}.`);
  }

  #exhausted(what: string): never {
    this.exhausted = true;
    this.fail(what);
  }

  skipWhitespace(): void {
    const { buf } = this;
    while (this.pos < buf.length) {
      const c = buf[this.pos]!;
      if (WHITESPACE.has(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < buf.length && buf[this.pos] !== 0x0a && buf[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  /** A regular token (number, keyword) at the current position, without consuming whitespace after it. */
  private regularToken(): string {
    const start = this.pos;
    while (this.pos < this.buf.length && !WHITESPACE.has(this.buf[this.pos]!) && !DELIMITERS.has(this.buf[this.pos]!)) this.pos++;
    if (this.pos - start > 16) return Buffer.from(this.buf.buffer, this.buf.byteOffset + start, this.pos - start).toString('latin1');
    // Short tokens (numbers, keywords) a character at a time: a buffer view per token cost more than the token.
    let token = '';
    for (let i = start; i < this.pos; i++) token += String.fromCharCode(this.buf[i]!);
    return token;
  }

  /** Reads `keyword` (e.g. "obj", "stream") or fails. */
  expectKeyword(keyword: string): void {
    this.skipWhitespace();
    const token = this.regularToken();
    if (token !== keyword) this.fail(`expected "${keyword}", found "${token}"`);
  }

  /** `N G obj` header: returns the object number. */
  readObjectHeader(): { num: number; gen: number } {
    this.skipWhitespace();
    const num = Number(this.regularToken());
    this.skipWhitespace();
    const gen = Number(this.regularToken());
    this.expectKeyword('obj');
    if (!Number.isInteger(num) || !Number.isInteger(gen)) this.fail('bad object header');
    return { num, gen };
  }

  readValue(): PdfValue {
    if (++this.#depth > MAX_PDF_NESTING) this.fail(`objects nested more than ${MAX_PDF_NESTING} deep`);
    // Counted per value read from the top (one object, or one operand of a content stream), not per parser.
    if (this.#depth === 1) this.#values = 0;
    if (++this.#values > MAX_PDF_OBJECT_VALUES) this.fail(`an object holds more than ${MAX_PDF_OBJECT_VALUES} values`);
    try {
      return this.#readValue();
    } finally {
      this.#depth--;
    }
  }

  #readValue(): PdfValue {
    this.skipWhitespace();
    const { buf } = this;
    const c = buf[this.pos];
    if (c === undefined) this.#exhausted('unexpected end of data');
    if (c === 0x2f) {
      this.pos++;
      const raw = this.regularToken();
      return new PdfName(raw.replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))));
    }
    if (c === 0x28) return this.readLiteralString();
    if (c === 0x3c) {
      if (buf[this.pos + 1] === 0x3c) return this.readDict();
      return this.readHexString();
    }
    if (c === 0x5b) {
      this.pos++;
      const items: PdfValue[] = [];
      for (;;) {
        this.skipWhitespace();
        if (buf[this.pos] === 0x5d) {
          this.pos++;
          return items;
        }
        if (this.pos >= buf.length) this.#exhausted('unterminated array');
        items.push(this.readValue());
        this.foldReference(items);
      }
    }
    const token = this.regularToken();
    if (token === '') this.fail(`unexpected character ${String.fromCharCode(c)}`);
    if (token === 'true') return true;
    if (token === 'false') return false;
    if (token === 'null') return null;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(token)) return Number(token);
    return new PdfRaw(token);
  }

  /** `a b R` is read as two numbers and an operator; turn the last three items into one reference. */
  private foldReference(items: PdfValue[]): void {
    const n = items.length;
    const last = items[n - 1];
    if (n >= 3 && last instanceof PdfRaw && last.text === 'R') {
      const num = items[n - 3];
      const gen = items[n - 2];
      if (typeof num === 'number' && typeof gen === 'number') items.splice(n - 3, 3, new PdfRef(num, gen));
    }
  }

  private readDict(): PdfDict {
    this.pos += 2;
    const dict = new PdfDict();
    for (;;) {
      this.skipWhitespace();
      if (this.buf[this.pos] === 0x3e && this.buf[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return dict;
      }
      const key = this.readValue();
      if (!(key instanceof PdfName)) this.fail('dictionary key is not a name');
      const values: PdfValue[] = [this.readValue()];
      // A reference value is three tokens; peek for "G R".
      if (typeof values[0] === 'number') {
        const save = this.pos;
        this.skipWhitespace();
        const gen = /^\d/.test(String.fromCharCode(this.buf[this.pos] ?? 0)) ? this.regularToken() : '';
        this.skipWhitespace();
        const r = this.buf[this.pos] === 0x52 ? this.regularToken() : '';
        if (gen !== '' && r === 'R') values[0] = new PdfRef(values[0], Number(gen));
        else this.pos = save;
      }
      dict.set(key.name, values[0]!);
    }
  }

  /** Finds the end only; the bytes are decoded if and when they are used. */
  private readHexString(): PdfString {
    // indexOf on the input itself: copying the buffer per string made many small strings quadratic in file size.
    const end = this.buf.indexOf(0x3e, this.pos);
    if (end < 0) this.#exhausted('unterminated hex string');
    const start = this.pos + 1;
    this.pos = end + 1;
    return PdfString.at(this.buf, start, end, true);
  }

  /** Finds the closing parenthesis (balanced, escapes skipped); the bytes are decoded if and when they are used. */
  private readLiteralString(): PdfString {
    const { buf } = this;
    const start = this.pos + 1;
    let depth = 0;
    for (let i = start; i < buf.length; i++) {
      const c = buf[i];
      if (c === 0x5c) i++;
      else if (c === 0x28) depth++;
      else if (c === 0x29) {
        if (depth === 0) {
          this.pos = i + 1;
          return PdfString.at(buf, start, i, false);
        }
        depth--;
      }
    }
    this.pos = buf.length;
    this.#exhausted('unterminated string');
  }
}
