// The PDF object model the incremental-update writer reads and writes back: just enough of ISO 32000-1 section 7.3
// to copy a catalog, page or form dictionary faithfully and add entries to it.

export class PdfName {
  constructor(readonly name: string) {}
}

export class PdfString {
  /** Raw bytes (after unescaping); `hex` keeps the original notation when written back. */
  constructor(
    readonly bytes: Uint8Array,
    readonly hex = false,
  ) {}

  /** A text string (7.9.2.2): plain bytes when ASCII, else UTF-16BE with a byte order mark. */
  static text(value: string): PdfString {
    if (/^[\x20-\x7e]*$/.test(value)) return new PdfString(Buffer.from(value, 'latin1'));
    const utf16 = Buffer.from(value, 'utf16le').swap16();
    return new PdfString(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16]), true);
  }
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
