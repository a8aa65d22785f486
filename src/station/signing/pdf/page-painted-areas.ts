import type { PdfDocumentReader } from './pdf-document-reader.js';
import { PdfDict, PdfName, PdfRaw, PdfRef, PdfString, type PdfValue } from './pdf-object.js';
import { PdfObjectParser } from './pdf-object-parser.js';
import type { Rect } from './signature-placement.js';

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
/** Bigger content than this is not read: the box then goes to the documented default corner. */
const MAX_CONTENT_BYTES = 16 * 1024 * 1024;
const MAX_OPERATIONS = 2_000_000;
/** More painted areas than this (a page of hairlines or glyph-by-glyph text) would make the search slow: fall back. */
const MAX_AREAS = 20_000;
/** Average glyph width as a share of the font size, to estimate how far a string runs without reading its font. */
const GLYPH_WIDTH = 0.6;
const PAINT = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);

/** m × n: apply m first, then n (ISO 32000-1 8.3.4). */
function multiply(m: Matrix, n: Matrix): Matrix {
  return [m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3], m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3], m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5]];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function bounds(points: readonly [number, number][]): Rect {
  const box: Rect = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    box[0] = Math.min(box[0], x);
    box[1] = Math.min(box[1], y);
    box[2] = Math.max(box[2], x);
    box[3] = Math.max(box[3], y);
  }
  return box;
}

const numbers = (operands: readonly PdfValue[]): number[] => operands.filter((v): v is number => typeof v === 'number');

/**
 * Where a content stream paints, approximately and on the generous side: filled or stroked paths, images and form
 * XObjects (their placed boxes), and text (each string's run estimated from its length and the font size, since
 * glyph widths would need the fonts). Enough to keep a signature box off the page's content; not a renderer.
 */
class PaintedAreaScanner {
  readonly areas: Rect[] = [];
  private ctm: Matrix = IDENTITY;
  private readonly saved: Matrix[] = [];
  private path: [number, number][] = [];
  private tm: Matrix = IDENTITY;
  private lm: Matrix = IDENTITY;
  private fontSize = 0;
  private leading = 0;
  private scale = 1;

  private bytesPerGlyph = 1;

  constructor(
    private readonly xobjects: ReadonlyMap<string, Rect>,
    private readonly twoByteFonts: ReadonlySet<string>,
  ) {}

  operator(op: string, operands: readonly PdfValue[]): void {
    const n = numbers(operands);
    if (op === 'q') this.saved.push(this.ctm);
    else if (op === 'Q') this.ctm = this.saved.pop() ?? IDENTITY;
    else if (op === 'cm' && n.length === 6) this.ctm = multiply(n as Matrix, this.ctm);
    else if (['m', 'l', 'c', 'v', 'y'].includes(op)) for (let i = 0; i + 1 < n.length; i += 2) this.path.push(apply(this.ctm, n[i]!, n[i + 1]!));
    else if (op === 're' && n.length === 4) this.rectangle(n[0]!, n[1]!, n[2]!, n[3]!);
    else if (PAINT.has(op)) this.paintPath();
    else if (op === 'n') this.path = [];
    else this.textOrObject(op, operands, n);
  }

  private rectangle(x: number, y: number, w: number, h: number): void {
    this.path.push(apply(this.ctm, x, y), apply(this.ctm, x + w, y), apply(this.ctm, x, y + h), apply(this.ctm, x + w, y + h));
  }

  private paintPath(): void {
    if (this.path.length > 0) this.areas.push(bounds(this.path));
    this.path = [];
  }

  private textOrObject(op: string, operands: readonly PdfValue[], n: number[]): void {
    if (op === 'BT') this.tm = this.lm = IDENTITY;
    else if (op === 'Tf' && n.length >= 1) {
      this.fontSize = Math.abs(n[n.length - 1]!);
      this.bytesPerGlyph = operands[0] instanceof PdfName && this.twoByteFonts.has(operands[0].name) ? 2 : 1;
    }
    else if (op === 'TL' && n.length === 1) this.leading = n[0]!;
    else if (op === 'Tz' && n.length === 1) this.scale = n[0]! / 100;
    else if ((op === 'Td' || op === 'TD') && n.length === 2) this.moveLine(n[0]!, n[1]!, op === 'TD');
    else if (op === 'Tm' && n.length === 6) this.tm = this.lm = n as Matrix;
    else if (op === 'T*') this.moveLine(0, -this.leading, false);
    else if (op === 'Tj' || op === 'TJ' || op === "'" || op === '"') {
      if (op !== 'Tj' && op !== 'TJ') this.moveLine(0, -this.leading, false);
      this.showText(operands[operands.length - 1]);
    } else if (op === 'Do' || op === 'EI') this.placeObject(operands[0]);
  }

  private moveLine(tx: number, ty: number, setLeading: boolean): void {
    if (setLeading) this.leading = -ty;
    this.lm = multiply([1, 0, 0, 1, tx, ty], this.lm);
    this.tm = this.lm;
  }

  private showText(value: PdfValue | undefined): void {
    const parts = Array.isArray(value) ? value : [value];
    let units = 0;
    for (const part of parts) {
      if (part instanceof PdfString) units += (part.bytes.length / this.bytesPerGlyph) * GLYPH_WIDTH;
      else if (typeof part === 'number') units -= part / 1000;
    }
    const width = Math.max(0, units) * this.fontSize * this.scale;
    const box = multiply(this.tm, this.ctm);
    this.areas.push(bounds([apply(box, 0, -0.25 * this.fontSize), apply(box, width, -0.25 * this.fontSize), apply(box, 0, this.fontSize), apply(box, width, this.fontSize)]));
    this.tm = multiply([1, 0, 0, 1, width, 0], this.tm);
  }

  /** An image (inline or XObject) fills the unit square; a form XObject its /BBox, both through the CTM. */
  private placeObject(name: PdfValue | undefined): void {
    const [x0, y0, x1, y1] = (name instanceof PdfName ? this.xobjects.get(name.name) : undefined) ?? [0, 0, 1, 1];
    this.areas.push(bounds([apply(this.ctm, x0, y0), apply(this.ctm, x1, y0), apply(this.ctm, x0, y1), apply(this.ctm, x1, y1)]));
  }
}

async function contentBytes(reader: PdfDocumentReader, page: PdfDict): Promise<Buffer | undefined> {
  const contents = await reader.direct(page.get('Contents'));
  const refs = (Array.isArray(contents) ? contents : [page.get('Contents')]).filter((v): v is PdfRef => v instanceof PdfRef);
  const parts: Uint8Array[] = [];
  for (const ref of refs) {
    const data = await reader.streamData(ref);
    if (!data) return undefined;
    parts.push(data, Buffer.from('\n'));
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  return total <= MAX_CONTENT_BYTES ? Buffer.concat(parts) : undefined;
}

async function resource(reader: PdfDocumentReader, page: PdfDict, kind: string): Promise<PdfValue | undefined> {
  const resources = await reader.direct(page.get('Resources'));
  return resources instanceof PdfDict ? reader.direct(resources.get(kind)) : undefined;
}

/** Names of the page's Type0 fonts, whose strings take two bytes a glyph (Identity-H and the like). */
async function twoByteFonts(reader: PdfDocumentReader, page: PdfDict): Promise<Set<string>> {
  const names = new Set<string>();
  const fonts = await resource(reader, page, 'Font');
  if (!(fonts instanceof PdfDict)) return names;
  for (const [name, value] of fonts.entries) {
    const font = await reader.direct(value);
    if (font instanceof PdfDict && (font.get('Subtype') as PdfName | undefined)?.name === 'Type0') names.add(name);
  }
  return names;
}

/** The /BBox of each form XObject in the page's own resources, by resource name (images need none). */
async function formBoxes(reader: PdfDocumentReader, page: PdfDict): Promise<Map<string, Rect>> {
  const boxes = new Map<string, Rect>();
  const xobjects = await resource(reader, page, 'XObject');
  if (!(xobjects instanceof PdfDict)) return boxes;
  for (const [name, value] of xobjects.entries) {
    const xobject = value instanceof PdfRef ? await reader.resolve(value) : value;
    const bbox = xobject instanceof PdfDict ? await reader.direct(xobject.get('BBox')) : undefined;
    if (Array.isArray(bbox) && bbox.length === 4 && bbox.every((v) => typeof v === 'number')) boxes.set(name, bbox as Rect);
  }
  return boxes;
}

/** Skips an inline image's data (BI ... ID <bytes> EI): the bytes are binary, not content-stream syntax. */
function skipInlineImage(parser: PdfObjectParser): void {
  const { buf } = parser;
  let at = parser.pos;
  while (at + 2 < buf.length && !(buf[at] === 0x45 && buf[at + 1] === 0x49 && (buf[at + 2] === 0x20 || buf[at + 2] === 0x0a || buf[at + 2] === 0x0d) && (buf[at - 1] === 0x20 || buf[at - 1] === 0x0a || buf[at - 1] === 0x0d))) at++;
  parser.pos = at;
}

/**
 * The areas (default user space) a page's content paints, or undefined when they cannot be read (a content filter
 * other than Flate, oversized or malformed content): callers then fall back to a fixed place.
 */
export async function pagePaintedAreas(reader: PdfDocumentReader, page: PdfDict): Promise<Rect[] | undefined> {
  const content = await contentBytes(reader, page);
  if (!content) return undefined;
  const scanner = new PaintedAreaScanner(await formBoxes(reader, page), await twoByteFonts(reader, page));
  const parser = new PdfObjectParser(content);
  let operands: PdfValue[] = [];
  try {
    for (let count = 0; count < MAX_OPERATIONS; count++) {
      parser.skipWhitespace();
      if (parser.pos >= content.length) return scanner.areas.length <= MAX_AREAS ? scanner.areas : undefined;
      const value = parser.readValue();
      if (!(value instanceof PdfRaw)) {
        operands.push(value);
        continue;
      }
      if (value.text === 'ID') skipInlineImage(parser);
      scanner.operator(value.text, operands);
      operands = [];
    }
  } catch {
    return undefined;
  }
  return undefined;
}
