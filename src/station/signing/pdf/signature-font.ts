// The font of the visible signature: DejaVu Sans (Bitstream Vera licence, from the dejavu-fonts-ttf package), which
// covers Latin with every diacritic of the EU languages, Greek, Cyrillic and the usual punctuation (– — € “ ”).
// Only the glyphs a signature uses are embedded, as a TrueType subset made by fontkit.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font, type Glyph } from 'fontkit';
import { PdfDict, PdfName, PdfString, formatPdfValue, type PdfRef } from './pdf-object.js';
import { compressedStream } from './pdf-stream-object.js';

const FONT_FILE = 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
/** ISO 32000-1 9.6.4: a subset's font name starts with six capital letters and '+'. */
const SUBSET_NAME = 'SSSIGN+DejaVuSans';

let loaded: Font | undefined;

/** Parsed once per process: the file is 740 kB and a signature needs a few dozen of its glyphs. */
function signatureFont(): Font {
  if (!loaded) {
    const font = create(readFileSync(createRequire(import.meta.url).resolve(FONT_FILE)));
    if (!('glyphForCodePoint' in font)) throw new Error(`${FONT_FILE} is a font collection, not a font`);
    loaded = font;
  }
  return loaded;
}

/** One PDF object the font needs: the dictionary, and the stream bytes (latin1) when it is a stream. */
export interface FontObject {
  ref: PdfRef;
  body: string;
}

/**
 * The glyphs used so far, numbered in the order they were first used; those numbers are both the CIDs written in
 * the content stream and the glyph ids of the embedded subset (CIDToGIDMap /Identity), because fontkit's subset
 * renumbers glyphs the same way (.notdef first, then in the order included).
 */
export class SignatureFontSubset {
  private readonly font = signatureFont();
  private readonly glyphs: Glyph[] = [];
  private readonly cidOf = new Map<number, number>();
  private readonly unicodeOf = new Map<number, number>();

  constructor() {
    this.cidFor(this.font.getGlyph(0), undefined);
  }

  /** Width in text space units of `text` set at `size` points. */
  width(text: string, size: number): number {
    let units = 0;
    for (const ch of text.normalize('NFC')) units += this.font.glyphForCodePoint(ch.codePointAt(0)!).advanceWidth;
    return (units * size) / this.font.unitsPerEm;
  }

  /** `text` as a hex string of two-byte CIDs, for Tj. Characters the font lacks show its .notdef box. */
  encode(text: string): string {
    let hex = '';
    for (const ch of text.normalize('NFC')) {
      const codePoint = ch.codePointAt(0)!;
      hex += this.cidFor(this.font.glyphForCodePoint(codePoint), codePoint).toString(16).padStart(4, '0');
    }
    return `<${hex}>`;
  }

  private cidFor(glyph: Glyph, codePoint: number | undefined): number {
    let cid = this.cidOf.get(glyph.id);
    if (cid === undefined) {
      cid = this.glyphs.length;
      this.glyphs.push(glyph);
      this.cidOf.set(glyph.id, cid);
    }
    if (codePoint !== undefined && glyph.id !== 0 && !this.unicodeOf.has(cid)) this.unicodeOf.set(cid, codePoint);
    return cid;
  }

  /**
   * The Type0 font (ISO 32000-1 9.7) for the glyphs encoded so far: Identity-H, a CIDFontType2 descendant with
   * widths, the subset as FontFile2, and a ToUnicode CMap so the text can be searched and copied. `refs` are five
   * object references the caller allocated; the first is the Type0 font itself.
   */
  objects(refs: readonly [PdfRef, PdfRef, PdfRef, PdfRef, PdfRef]): FontObject[] {
    const [type0Ref, cidFontRef, descriptorRef, fontFileRef, toUnicodeRef] = refs;
    const scale = 1000 / this.font.unitsPerEm;
    const type0 = new PdfDict([
      ['Type', new PdfName('Font')],
      ['Subtype', new PdfName('Type0')],
      ['BaseFont', new PdfName(SUBSET_NAME)],
      ['Encoding', new PdfName('Identity-H')],
      ['DescendantFonts', [cidFontRef]],
      ['ToUnicode', toUnicodeRef],
    ]);
    const cidFont = new PdfDict([
      ['Type', new PdfName('Font')],
      ['Subtype', new PdfName('CIDFontType2')],
      ['BaseFont', new PdfName(SUBSET_NAME)],
      ['CIDSystemInfo', new PdfDict([['Registry', PdfString.text('Adobe')], ['Ordering', PdfString.text('Identity')], ['Supplement', 0]])],
      ['FontDescriptor', descriptorRef],
      ['DW', 1000],
      ['W', [0, this.glyphs.map((g) => Math.round(g.advanceWidth * scale))]],
      ['CIDToGIDMap', new PdfName('Identity')],
    ]);
    const { bbox } = this.font;
    const descriptor = new PdfDict([
      ['Type', new PdfName('FontDescriptor')],
      ['FontName', new PdfName(SUBSET_NAME)],
      ['Flags', 32],
      ['FontBBox', [bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].map((v) => Math.round(v * scale))],
      ['ItalicAngle', 0],
      ['Ascent', Math.round(this.font.ascent * scale)],
      ['Descent', Math.round(this.font.descent * scale)],
      ['CapHeight', Math.round((this.font.capHeight || this.font.ascent) * scale)],
      ['StemV', 80],
      ['FontFile2', fontFileRef],
    ]);
    return [
      { ref: type0Ref, body: formatPdfValue(type0) },
      { ref: cidFontRef, body: formatPdfValue(cidFont) },
      { ref: descriptorRef, body: formatPdfValue(descriptor) },
      { ref: fontFileRef, body: this.fontFile() },
      { ref: toUnicodeRef, body: compressedStream(Buffer.from(this.toUnicodeCMap(), 'latin1')) },
    ];
  }

  private fontFile(): string {
    const subset = this.font.createSubset();
    for (const glyph of this.glyphs.slice(1)) subset.includeGlyph(glyph);
    const bytes = Buffer.from(subset.encode());
    return compressedStream(bytes, [['Length1', bytes.length]]);
  }

  /** ISO 32000-1 9.10.3: CID -> UTF-16BE, one bfchar entry per glyph (at most 100 per block). */
  private toUnicodeCMap(): string {
    const entries = [...this.unicodeOf].map(([cid, codePoint]) => {
      const utf16 = Buffer.from(String.fromCodePoint(codePoint), 'utf16le').swap16().toString('hex');
      return `<${cid.toString(16).padStart(4, '0')}> <${utf16}>`;
    });
    const blocks: string[] = [];
    for (let i = 0; i < entries.length; i += 100) {
      const block = entries.slice(i, i + 100);
      blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
    }
    return [
      '/CIDInit /ProcSet findresource begin',
      '12 dict begin',
      'begincmap',
      '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
      '/CMapName /Adobe-Identity-UCS def',
      '/CMapType 2 def',
      '1 begincodespacerange',
      '<0000> <FFFF>',
      'endcodespacerange',
      ...blocks,
      'endcmap',
      'CMapName currentdict /CMap defineresource pop',
      'end',
      'end',
    ].join('\n');
  }
}
