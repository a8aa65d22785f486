// The PDF object model the incremental-update writer reads and writes back: just enough of ISO 32000-1 section 7.3
// to copy a catalog, page or form dictionary faithfully and add entries to it.

export class PdfName {
  constructor(readonly name: string) {}
}

const EMPTY = new Uint8Array(0);

export class PdfString {
  #bytes: Uint8Array | undefined;
  #source: Uint8Array | undefined;
  #start = 0;
  #end = 0;

  /** Raw bytes (after unescaping); `hex` keeps the original notation when written back. */
  constructor(
    bytes: Uint8Array,
    readonly hex = false,
  ) {
    this.#bytes = bytes;
  }

  /**
   * A string as it stands in a file, between its delimiters at `start` and `end` of `source`, decoded when first
   * asked for: millions of tiny strings in a hostile file then cost one small object each, not a buffer each.
   */
  static at(source: Uint8Array, start: number, end: number, hex: boolean): PdfString {
    const string = new PdfString(EMPTY, hex);
    string.#bytes = undefined;
    string.#source = source;
    string.#start = start;
    string.#end = end;
    return string;
  }

  get bytes(): Uint8Array {
    if (this.#bytes === undefined) {
      this.#bytes = (this.hex ? decodeHex : decodeLiteral)(this.#source!, this.#start, this.#end);
      this.#source = undefined;
    }
    return this.#bytes;
  }

  /** A text string (7.9.2.2): plain bytes when ASCII, else UTF-16BE with a byte order mark. */
  static text(value: string): PdfString {
    if (/^[\x20-\x7e]*$/.test(value)) return new PdfString(Buffer.from(value, 'latin1'));
    const utf16 = Buffer.from(value, 'utf16le').swap16();
    return new PdfString(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16]), true);
  }
}

const hexDigit = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);

/** Hex digits between `<` and `>`; anything else (whitespace) is skipped, an odd last digit is followed by 0. */
function decodeHex(source: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(Math.ceil((end - start) / 2));
  let length = 0;
  let high = -1;
  for (let i = start; i < end; i++) {
    const digit = hexDigit(source[i]!);
    if (digit < 0) continue;
    if (high < 0) high = digit;
    else {
      out[length++] = high * 16 + digit;
      high = -1;
    }
  }
  if (high >= 0) out[length++] = high * 16;
  return out.subarray(0, length);
}

const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c, 0x28: 0x28, 0x29: 0x29, 0x5c: 0x5c };

/** A literal string's bytes between its outer parentheses (7.3.4.2): escapes, octal codes, line continuations. */
function decodeLiteral(source: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  let length = 0;
  for (let i = start; i < end; ) {
    const c = source[i++]!;
    if (c !== 0x5c) {
      out[length++] = c;
      continue;
    }
    const e = source[i++]!;
    if (ESCAPES[e] !== undefined) out[length++] = ESCAPES[e];
    else if (e >= 0x30 && e <= 0x37) {
      let octal = e - 0x30;
      for (let k = 0; k < 2 && i < end && source[i]! >= 0x30 && source[i]! <= 0x37; k++) octal = octal * 8 + (source[i++]! - 0x30);
      out[length++] = octal & 0xff;
    } else if (e === 0x0d) {
      if (source[i] === 0x0a) i++;
    } else if (e !== 0x0a) out[length++] = e;
  }
  return out.subarray(0, length);
}

export class PdfRef {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}

/** Operators and anything else the writer copies verbatim (e.g. a placeholder). */
export class PdfRaw {
  constructor(readonly text: string) {}
}

export type PdfValue = null | boolean | number | PdfName | PdfString | PdfRef | PdfRaw | PdfValue[] | PdfDict;

export class PdfDict {
  readonly entries: Map<string, PdfValue>;
  constructor(entries: Iterable<[string, PdfValue]> = []) {
    this.entries = new Map(entries);
  }
  get(key: string): PdfValue | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: PdfValue): this {
    this.entries.set(key, value);
    return this;
  }
}

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

function formatName(name: string): string {
  let out = '/';
  for (const ch of name) {
    const c = ch.charCodeAt(0);
    out += c < 0x21 || c > 0x7e || '#()<>[]{}/%'.includes(ch) ? `#${c.toString(16).padStart(2, '0')}` : ch;
  }
  return out;
}

function formatString(s: PdfString): string {
  if (s.hex) return `<${Buffer.from(s.bytes).toString('hex')}>`;
  let out = '(';
  for (const byte of s.bytes) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte === 0x0a) out += '\\n';
    else if (byte === 0x0d) out += '\\r';
    else out += String.fromCharCode(byte);
  }
  return `${out})`;
}

/** Serialises a value as latin1 text (one char per byte). */
export function formatPdfValue(value: PdfValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return formatNumber(value);
  if (value instanceof PdfName) return formatName(value.name);
  if (value instanceof PdfString) return formatString(value);
  if (value instanceof PdfRef) return `${value.num} ${value.gen} R`;
  if (value instanceof PdfRaw) return value.text;
  if (Array.isArray(value)) return `[${value.map(formatPdfValue).join(' ')}]`;
  return `<<${[...value.entries].map(([k, v]) => `${formatName(k)} ${formatPdfValue(v)}`).join(' ')}>>`;
}
