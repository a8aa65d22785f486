import type { StampLanguage } from '../../../core/schemas/stamp-language.js';
import { UnsupportedDocumentError } from '../signing-errors.js';
import type { PdfDocumentReader } from './pdf-document-reader.js';
import { refuseCertifiedWithoutChanges } from './pdf-doc-mdp.js';
import { PdfDict, PdfName, PdfRaw, PdfRef, PdfString, formatPdfValue, type PdfValue } from './pdf-object.js';
import { findPage, type FoundPage } from './pdf-page-lookup.js';
import { DEFAULT_APPEARANCE_WIDTH, appearanceLines, signatureAppearance } from './pdf-signature-appearance.js';
import { PdfUpdateObjects } from './pdf-update-writer.js';
import { SignatureFontSubset } from './signature-font.js';
import { pagePaintedAreas } from './page-painted-areas.js';
import { appearanceMatrix, checkedRect, defaultRect, defaultWidth, freeRect, userRect, type Rect, type ViewerRect } from './signature-placement.js';

export interface SignatureUpdateOptions {
  /** A signature (CAdES, with signer and reason) or a document timestamp (RFC 3161, for B-LTA). Default signature. */
  kind?: 'signature' | 'document-timestamp';
  signerName: string;
  time: Date;
  reason?: string;
  visible: boolean;
  /** Visible signatures: 1-based page (default 1) and a viewer-space rectangle (default: bottom-left corner). */
  page?: number;
  rect?: ViewerRect;
  /** IANA time zone the visible time is shown in; defaults to the station's. */
  timeZone?: string;
  /** The visible labels' language; English by default. */
  stampLanguage?: StampLanguage;
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

/** The interactive form as found, and what a new signature field needs from it. */
export interface SignatureForm {
  ref: PdfRef | undefined;
  dict: PdfDict;
  fieldsRef: PdfRef | undefined;
  fields: PdfValue[];
  fieldName: string;
  /** /Rect of existing signature widgets, by the object number of their page (/P). */
  signatureRects: Map<number, Rect[]>;
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

export async function readSignatureForm(reader: PdfDocumentReader, catalog: PdfDict): Promise<SignatureForm> {
  const value = catalog.get('AcroForm');
  const dict = value === undefined ? new PdfDict() : copyDict(await reader.direct(value), 'the AcroForm');
  const fieldsValue = dict.get('Fields');
  const listed = await reader.direct(fieldsValue);
  const fields = Array.isArray(listed) ? listed : [];
  const names = new Set<string>();
  const signatureRects = new Map<number, Rect[]>();
  let signatureFields = 0;
  for (const field of fields) {
    const fieldDict = await reader.direct(field);
    if (!(fieldDict instanceof PdfDict)) continue;
    const t = fieldDict.get('T');
    if (t instanceof PdfString) names.add(Buffer.from(t.bytes).toString('latin1'));
    if ((fieldDict.get('FT') as PdfName | undefined)?.name !== 'Sig') continue;
    signatureFields++;
    const rect = await reader.direct(fieldDict.get('Rect'));
    const page = fieldDict.get('P');
    if (page instanceof PdfRef && Array.isArray(rect) && rect.length === 4 && rect.every((v) => typeof v === 'number')) {
      const [x0, y0, x1, y1] = rect as number[];
      if (x1! > x0! && y1! > y0!) signatureRects.set(page.num, [...(signatureRects.get(page.num) ?? []), [x0!, y0!, x1!, y1!]]);
    }
  }
  let fieldName = '';
  for (let i = signatureFields + 1; !fieldName || names.has(fieldName); i++) fieldName = `Signature${i}`;
  return { ref: value instanceof PdfRef ? value : undefined, dict, fieldsRef: fieldsValue instanceof PdfRef ? fieldsValue : undefined, fields, fieldName, signatureRects };
}

function signatureDictionary(options: SignatureUpdateOptions): PdfDict {
  if (options.kind === 'document-timestamp') {
    return new PdfDict([
      ['Type', name('DocTimeStamp')],
      ['Filter', name('Adobe.PPKLite')],
      ['SubFilter', name('ETSI.RFC3161')],
      ['ByteRange', new PdfRaw(BYTE_RANGE_PLACEHOLDER)],
      ['Contents', new PdfRaw(`<${'0'.repeat(options.contentsSize * 2)}>`)],
    ]);
  }
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
  return sig;
}

/** Lays out the text, places the box on the page and adds the appearance form with its embedded font. */
function addAppearance(update: PdfUpdateObjects, widget: PdfDict, page: FoundPage, obstacles: { painted: Rect[] | undefined; signatures: Rect[] }, options: SignatureUpdateOptions): void {
  const font = new SignatureFontSubset();
  const text = { signer: options.signerName, time: options.time, ...(options.reason ? { reason: options.reason } : {}), ...(options.timeZone ? { timeZone: options.timeZone } : {}), ...(options.stampLanguage ? { language: options.stampLanguage } : {}) };
  const width = options.rect?.width ?? defaultWidth(page.geometry, DEFAULT_APPEARANCE_WIDTH);
  const { lines, height } = appearanceLines(text, width, font);
  const place = options.rect
    ? checkedRect(page.geometry, options.rect, { minWidth: Math.min(DEFAULT_APPEARANCE_WIDTH, 120), height })
    : ((obstacles.painted && freeRect(page.geometry, { width, height }, obstacles.painted, obstacles.signatures)) ?? defaultRect(page.geometry, { width, height }, obstacles.signatures));
  const appearance = signatureAppearance(lines, place.width, place.height, font);
  const fontRef = update.allocate();
  const refs = [fontRef, update.allocate(), update.allocate(), update.allocate(), update.allocate()] as const;
  const form = new PdfDict([
    ['Type', name('XObject')],
    ['Subtype', name('Form')],
    ['BBox', [0, 0, appearance.width, appearance.height]],
    ['Matrix', appearanceMatrix(page.geometry)],
    ['Resources', new PdfDict([['Font', new PdfDict([['F1', fontRef]])]])],
    ['Length', Buffer.byteLength(appearance.content, 'latin1')],
  ]);
  const apRef = update.add({ body: `${formatPdfValue(form)}\nstream\n${appearance.content}\nendstream` });
  for (const object of appearance.font.objects(refs)) update.set(object.ref, { body: object.body });
  widget.set('Rect', userRect(page.geometry, place));
  widget.set('AP', new PdfDict([['N', apRef]]));
}

/** The page lists the widget in /Annots (rewriting the indirect array, or the page when /Annots is inline). */
async function addWidgetToPage(update: PdfUpdateObjects, reader: PdfDocumentReader, page: FoundPage, widgetRef: PdfRef): Promise<void> {
  const annots = page.dict.get('Annots');
  if (annots instanceof PdfRef) {
    const existing = await reader.resolve(annots);
    update.set(annots, [...(Array.isArray(existing) ? existing : []), widgetRef]);
  } else {
    page.dict.set('Annots', [...(Array.isArray(annots) ? annots : []), widgetRef]);
    update.set(page.ref, page.dict);
  }
}

/** The form lists the field and says the document is signed (SigFlags 3: signatures exist, append only). */
function addFieldToForm(update: PdfUpdateObjects, form: SignatureForm, catalog: PdfDict, rootRef: PdfRef, widgetRef: PdfRef): void {
  if (form.fieldsRef) update.set(form.fieldsRef, [...form.fields, widgetRef]);
  else form.dict.set('Fields', [...form.fields, widgetRef]);
  form.dict.set('SigFlags', 3);
  if (form.ref) update.set(form.ref, form.dict);
  else {
    catalog.set('AcroForm', form.dict);
    update.set(rootRef, catalog);
  }
}

/** Finds the /Contents hole and writes the real /ByteRange over its placeholder (same length, space padded). */
function fillByteRange(text: string, base: number): PdfSignatureUpdate {
  const contentsStart = text.indexOf('/Contents <') + '/Contents '.length;
  const contentsEnd = text.indexOf('>', contentsStart) + 1;
  const total = base + Buffer.byteLength(text, 'latin1');
  const byteRange: [number, number, number, number] = [0, base + contentsStart, base + contentsEnd, total - (base + contentsEnd)];
  const byteRangeText = `[${byteRange.join(' ')}]`.padEnd(BYTE_RANGE_PLACEHOLDER.length, ' ');
  if (byteRangeText.length > BYTE_RANGE_PLACEHOLDER.length) throw new UnsupportedDocumentError('The PDF is too large to sign.');
  return { tail: Buffer.from(text.replace(BYTE_RANGE_PLACEHOLDER, byteRangeText), 'latin1'), contentsStart, contentsEnd, byteRange };
}

/**
 * Builds the incremental update that adds one signature field to a PDF: signature dictionary (first, so its
 * /Contents hole is the first in the update), widget (visible or not) on the chosen page, the page and AcroForm
 * rewritten to reference it, and a cross-reference section chained with /Prev. Earlier bytes are never touched,
 * which is what keeps earlier signatures valid.
 *
 * Written by hand because no maintained JavaScript PDF library appends an update to a file on disk without loading
 * and re-serialising the whole document (which breaks earlier signatures and does not stream big files).
 */
export async function buildSignatureUpdate(reader: PdfDocumentReader, options: SignatureUpdateOptions): Promise<PdfSignatureUpdate> {
  const rootRef = reader.trailer.get('Root') as PdfRef;
  const catalog = copyDict(await reader.resolve(rootRef), 'the catalog');
  await refuseCertifiedWithoutChanges(reader, catalog);
  const form = await readSignatureForm(reader, catalog);
  const page = await findPage(reader, catalog, options.page ?? 1);
  const update = new PdfUpdateObjects(reader);
  const sigRef = update.add(signatureDictionary(options));
  const widgetRef = update.allocate();
  const widget = new PdfDict([
    ['Type', name('Annot')],
    ['Subtype', name('Widget')],
    ['FT', name('Sig')],
    ['T', PdfString.text(form.fieldName)],
    ['V', sigRef],
    ['P', page.ref],
    ['F', 132],
  ]);
  if (options.visible) {
    const obstacles = { painted: options.rect ? undefined : await pagePaintedAreas(reader, page.dict), signatures: form.signatureRects.get(page.ref.num) ?? [] };
    addAppearance(update, widget, page, obstacles, options);
  }
  else widget.set('Rect', [0, 0, 0, 0]);
  update.set(widgetRef, widget);
  await addWidgetToPage(update, reader, page, widgetRef);
  addFieldToForm(update, form, catalog, rootRef, widgetRef);
  return fillByteRange(update.serialise(), reader.size);
}
