import { InvalidPlacementError, UnsupportedDocumentError } from '../signing-errors.js';
import type { PdfDocumentReader } from './pdf-document-reader.js';
import { PdfDict, PdfName, PdfRef, type PdfValue } from './pdf-object.js';

export type PageRotation = 0 | 90 | 180 | 270;

/** Where a page is visible and how viewers turn it. */
export interface PageGeometry {
  /** CropBox within MediaBox, normalised [llx lly urx ury], in default user space. */
  visible: [number, number, number, number];
  rotate: PageRotation;
}

export interface FoundPage {
  ref: PdfRef;
  dict: PdfDict;
  geometry: PageGeometry;
  /** 1-based. */
  number: number;
}

const MAX_TREE_DEPTH = 64;
/** US Letter, what readers assume when a page has no MediaBox at all. */
const DEFAULT_MEDIA_BOX: [number, number, number, number] = [0, 0, 612, 792];

type Inherited = { MediaBox?: PdfValue; CropBox?: PdfValue; Rotate?: PdfValue };

async function box(reader: PdfDocumentReader, value: PdfValue | undefined): Promise<[number, number, number, number] | undefined> {
  const array = await reader.direct(value);
  if (!Array.isArray(array) || array.length !== 4) return undefined;
  const n = await Promise.all(array.map((v) => reader.direct(v)));
  if (!n.every((v): v is number => typeof v === 'number' && Number.isFinite(v))) return undefined;
  const [x0, y0, x1, y1] = n as [number, number, number, number];
  return [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
}

async function geometry(reader: PdfDocumentReader, attributes: Inherited): Promise<PageGeometry> {
  const media = (await box(reader, attributes.MediaBox)) ?? DEFAULT_MEDIA_BOX;
  const crop = (await box(reader, attributes.CropBox)) ?? media;
  const visible: [number, number, number, number] = [Math.max(media[0], crop[0]), Math.max(media[1], crop[1]), Math.min(media[2], crop[2]), Math.min(media[3], crop[3])];
  if (visible[2] <= visible[0] || visible[3] <= visible[1]) throw new UnsupportedDocumentError('Malformed PDF: the page has no visible area (CropBox outside MediaBox).');
  const rotateValue = await reader.direct(attributes.Rotate);
  const rotate = typeof rotateValue === 'number' && Number.isInteger(rotateValue) ? ((((rotateValue % 360) + 360) % 360) as number) : 0;
  return { visible, rotate: (rotate % 90 === 0 ? rotate : 0) as PageRotation };
}

/** The page count the page tree's root announces. */
export async function pageCount(reader: PdfDocumentReader, catalog: PdfDict): Promise<number> {
  const root = await reader.direct(catalog.get('Pages'));
  const count = root instanceof PdfDict ? await reader.direct(root.get('Count')) : undefined;
  return typeof count === 'number' && count > 0 ? count : 0;
}

/**
 * Page `number` (1-based) through the page tree, skipping whole subtrees by their /Count, with the attributes it
 * inherits from its ancestors (ISO 32000-1 7.7.3.4).
 */
export async function findPage(reader: PdfDocumentReader, catalog: PdfDict, number: number): Promise<FoundPage> {
  const total = await pageCount(reader, catalog);
  if (!Number.isInteger(number) || number < 1 || number > Math.max(total, 1)) throw new InvalidPlacementError(`There is no page ${number}: the document has ${total} pages.`);
  let node = catalog.get('Pages');
  let skip = number - 1;
  const inherited: Inherited = {};
  for (let depth = 0; depth < MAX_TREE_DEPTH && node instanceof PdfRef; depth++) {
    const dict = await reader.resolve(node);
    if (!(dict instanceof PdfDict)) break;
    for (const key of ['MediaBox', 'CropBox', 'Rotate'] as const) if (dict.get(key) !== undefined) inherited[key] = dict.get(key);
    if ((dict.get('Type') as PdfName | undefined)?.name === 'Page' || dict.get('Kids') === undefined) {
      return { ref: node, dict: new PdfDict(dict.entries), geometry: await geometry(reader, inherited), number };
    }
    const kids = await reader.direct(dict.get('Kids'));
    node = undefined;
    for (const kid of Array.isArray(kids) ? kids : []) {
      const kidDict = await reader.direct(kid);
      const isLeaf = kidDict instanceof PdfDict && ((kidDict.get('Type') as PdfName | undefined)?.name === 'Page' || kidDict.get('Kids') === undefined);
      const count = isLeaf ? 1 : kidDict instanceof PdfDict ? await reader.direct(kidDict.get('Count')) : 0;
      const size = typeof count === 'number' && count > 0 ? count : 0;
      if (skip < size) {
        node = kid;
        break;
      }
      skip -= size;
    }
  }
  throw new UnsupportedDocumentError(`Malformed PDF: page ${number} is not in the page tree.`);
}
