import type { PdfChanges } from '../../core/schemas/verification-report.js';
import { certificationLevel } from '../signing/pdf/pdf-certification-level.js';
import type { PdfDocumentReader } from '../signing/pdf/pdf-document-reader.js';
import { PdfDict, PdfName, PdfRef, PdfString, formatPdfValue, type PdfValue } from '../signing/pdf/pdf-object.js';
import { pdfText } from './pdf-text.js';
import type { PdfFieldLock } from './read-pdf-signatures.js';
import type { VerdictFinding } from './verdict-finding.js';

/** What later revisions changed after one signature, the failure it leads to when any, and each change in words. */
export interface PdfChangesCheck {
  changes: PdfChanges;
  finding: VerdictFinding | undefined;
  notes: string[];
}

const MAX_PAGES = 100_000;
const MAX_FIELDS = 10_000;
const MAX_TREE_DEPTH = 64;
/** Objects written again that are read in both revisions to compare; past it the count stops. */
const MAX_OBJECTS_COMPARED = 10_000;

interface Page {
  ref: PdfRef | undefined;
  dict: PdfDict;
}

interface Field {
  signature: 'signature' | 'timestamp' | null;
  value: string;
}

/**
 * Compares the revision a PDF signature signed with the document as it is now, object graph against object graph:
 * the page tree (pages added or removed, a page's own entries or content rewritten), each page's annotations
 * (form widgets aside) and the AcroForm fields (filled in, added, removed, signed). Pages added or removed are
 * TOTAL-FAILED/FORMAT_FAILURE, as the reference validator's default policy has it; the other changes are reported
 * with whether the certification in force (DocMDP P, ISO 32000-1 12.8.2.2) and this signature's field lock
 * (FieldMDP) allow them, which changes no verdict there either (it warns).
 */
export async function checkPdfChanges(signed: PdfDocumentReader, final: PdfDocumentReader, lock: PdfFieldLock | null): Promise<PdfChangesCheck> {
  const signedCatalog = await catalogOf(signed);
  const finalCatalog = await catalogOf(final);
  // Objects the comparison below looks at; any other object of the signed revision written again is counted apart.
  const known = new Set([signed.trailer.get('Root'), signed.trailer.get('Info'), ...['AcroForm', 'Pages', 'DSS', 'Metadata', 'Perms'].map((key) => signedCatalog.get(key))].flatMap(refNumber));
  const dss = await signed.direct(signedCatalog.get('DSS'));
  if (dss instanceof PdfDict) [...dss.entries.values()].flatMap(refNumber).forEach((num) => known.add(num));
  const before = await pagesOf(signed, signedCatalog, known);
  const after = await pagesOf(final, finalCatalog, known);
  const pagesChanged: number[] = [];
  const annotationPages: number[] = [];
  for (let i = 0; i < Math.min(before.length, after.length); i++) {
    if (await pageRewritten(signed, final, before[i]!, after[i]!)) pagesChanged.push(i + 1);
    if (await annotationsChanged(signed, final, before[i]!, after[i]!, known)) annotationPages.push(i + 1);
  }
  const fieldsBefore = await fieldsOf(signed, signedCatalog, known);
  const fieldsAfter = await fieldsOf(final, finalCatalog, known);
  const formFields: string[] = [];
  let signaturesAdded = 0;
  for (const name of new Set([...fieldsBefore.keys(), ...fieldsAfter.keys()])) {
    const [was, is] = [fieldsBefore.get(name), fieldsAfter.get(name)];
    if (was?.value === is?.value) continue;
    // Signing a field (empty before) is a signature; a document timestamp is allowed whatever the certification.
    if (is?.signature && (!was || was.value === '')) signaturesAdded += is.signature === 'signature' ? 1 : 0;
    else formFields.push(name);
  }
  const certification = await certificationLevel(signed, signedCatalog);
  const otherObjects = await otherObjectsChanged(signed, final, known);
  const changes = { pagesAdded: numbers(before.length, after.length), pagesRemoved: numbers(after.length, before.length), pagesChanged, annotationPages, formFields, signaturesAdded, otherObjects, certification, allowed: true };
  const locked = formFields.filter((name) => lock && (lock.action === 'All' || lock.fields.includes(name) === (lock.action === 'Include')));
  const notes = describe(changes, locked);
  changes.allowed = notes.every((note) => !note.includes(NOT_ALLOWED));
  const moved = [...changes.pagesAdded.map((n) => `page ${n} added`), ...changes.pagesRemoved.map((n) => `page ${n} removed`)];
  const finding: VerdictFinding | undefined =
    moved.length > 0 ? { indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason: `pages were added to or removed from the document after this signature (${moved.join(', ')})` } : undefined;
  return { changes, finding, notes };
}

const NOT_ALLOWED = 'not allowed';

/** Each kind of change in words, saying whether the certification (or the lock) allows it. */
function describe(changes: PdfChanges, locked: string[]): string[] {
  const { certification: p } = changes;
  const verdict = (allowed: boolean): string => (p === null ? '' : allowed ? ` (allowed by the certification, P ${p})` : ` (${NOT_ALLOWED} by the certification, P ${p})`);
  const list = (items: readonly (number | string)[]): string => items.join(', ');
  const notes: string[] = [];
  if (changes.pagesAdded.length > 0) notes.push(`after this signature: pages added (${list(changes.pagesAdded)}), ${NOT_ALLOWED}`);
  if (changes.pagesRemoved.length > 0) notes.push(`after this signature: pages removed (${list(changes.pagesRemoved)}), ${NOT_ALLOWED}`);
  if (changes.pagesChanged.length > 0) notes.push(`after this signature: the content of pages ${list(changes.pagesChanged)} changed${verdict(false)}`);
  if (changes.annotationPages.length > 0) notes.push(`after this signature: annotations changed on pages ${list(changes.annotationPages)}${verdict(p === 3)}`);
  if (changes.formFields.length > 0) notes.push(`after this signature: form fields filled in, added or removed (${list(changes.formFields)})${verdict(p !== 1)}`);
  if (changes.signaturesAdded > 0) notes.push(`after this signature: ${changes.signaturesAdded} signature(s) added${verdict(p !== 1)}`);
  if (changes.otherObjects > 0) notes.push(`after this signature: ${changes.otherObjects} other object(s) of the signed revision written again with other content (such as images, fonts or drawings pages use)${verdict(false)}`);
  if (locked.length > 0) notes.push(`after this signature: fields it locks were changed (${list(locked)}), ${NOT_ALLOWED} by its field lock`);
  return notes;
}

const numbers = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i + 1);

async function catalogOf(reader: PdfDocumentReader): Promise<PdfDict> {
  const catalog = await reader.direct(reader.trailer.get('Root'));
  return catalog instanceof PdfDict ? catalog : new PdfDict();
}

/** The leaves of the page tree in order, each with its reference (absent for a direct one). */
async function pagesOf(reader: PdfDocumentReader, catalog: PdfDict, known: Set<number>): Promise<Page[]> {
  const pages: Page[] = [];
  const seen = new Set<number>();
  const walk = async (value: PdfValue | undefined, depth: number): Promise<void> => {
    if (depth > MAX_TREE_DEPTH || pages.length >= MAX_PAGES) return;
    if (value instanceof PdfRef) {
      if (seen.has(value.num)) return; // a page tree that loops is read once
      seen.add(value.num);
      known.add(value.num);
    }
    const node = await reader.direct(value);
    if (!(node instanceof PdfDict)) return;
    const kids = await reader.direct(node.get('Kids'));
    refNumber(node.get('Kids')).forEach((num) => known.add(num));
    if ((node.get('Type') as PdfName | undefined)?.name === 'Pages' || Array.isArray(kids)) {
      for (const kid of Array.isArray(kids) ? kids : []) await walk(kid, depth + 1);
    } else {
      const contents = await reader.direct(node.get('Contents'));
      [node.get('Contents'), ...(Array.isArray(contents) ? contents : [])].flatMap(refNumber).forEach((num) => known.add(num));
      pages.push({ ref: value instanceof PdfRef ? value : undefined, dict: node });
    }
  };
  await walk(catalog.get('Pages'), 0);
  return pages;
}

/** Whether an object was written again in a later revision (its cross-reference entry moved). */
function rewritten(signed: PdfDocumentReader, final: PdfDocumentReader, num: number): boolean {
  return JSON.stringify(signed.entries.get(num)) !== JSON.stringify(final.entries.get(num));
}

/** A different page object at that place, its entries other than /Annots changed, or its content streams rewritten. */
async function pageRewritten(signed: PdfDocumentReader, final: PdfDocumentReader, before: Page, after: Page): Promise<boolean> {
  if (before.ref?.num !== after.ref?.num) return true;
  if (withoutAnnots(before.dict) !== withoutAnnots(after.dict)) return true;
  const contents = await final.direct(after.dict.get('Contents'));
  const refs = [after.dict.get('Contents'), ...(Array.isArray(contents) ? contents : [])].filter((ref): ref is PdfRef => ref instanceof PdfRef);
  return refs.some((ref) => rewritten(signed, final, ref.num));
}

const refNumber = (value: PdfValue | undefined): number[] => (value instanceof PdfRef ? [value.num] : []);

/**
 * Objects of the signed revision that none of the comparisons looks at, written again in a later revision with
 * other content (same value and stream bytes is a harmless re-save): a changed image, font or drawing a page uses.
 */
async function otherObjectsChanged(signed: PdfDocumentReader, final: PdfDocumentReader, known: Set<number>): Promise<number> {
  let changed = 0;
  let compared = 0;
  for (const num of signed.entries.keys()) {
    if (known.has(num) || signed.entries.get(num)?.kind === 'free' || !rewritten(signed, final, num)) continue;
    if (++compared > MAX_OBJECTS_COMPARED) break;
    if (!(await sameObject(signed, final, num))) changed++;
  }
  return changed;
}

async function sameObject(signed: PdfDocumentReader, final: PdfDocumentReader, num: number): Promise<boolean> {
  try {
    const [a, b] = [await signed.object(num), await final.object(num)];
    return formatPdfValue(a.value) === formatPdfValue(b.value) && Buffer.from(a.stream ?? []).equals(Buffer.from(b.stream ?? []));
  } catch {
    return false; // an object one revision cannot read is not the same object
  }
}

const withoutAnnots = (dict: PdfDict): string => formatPdfValue(new PdfDict([...dict.entries].filter(([key]) => key !== 'Annots')));

/** Annotations other than form widgets added, removed or rewritten on a page. */
async function annotationsChanged(signed: PdfDocumentReader, final: PdfDocumentReader, before: Page, after: Page, known: Set<number>): Promise<boolean> {
  const was = await annotationsOf(signed, before.dict, known);
  for (const key of [...was.keys(), ...refNumber(before.dict.get('Annots'))]) if (typeof key === 'number') known.add(key);
  const is = await annotationsOf(final, after.dict, known);
  for (const key of new Set([...was.keys(), ...is.keys()])) {
    const [a, b] = [was.get(key), is.get(key)];
    const widget = (a ?? b)!.widget;
    if (widget) continue; // a form field or a signature: judged with the fields
    if (!a || !b || a.text !== b.text || (typeof key === 'number' && rewritten(signed, final, key))) return true;
  }
  return false;
}

async function annotationsOf(reader: PdfDocumentReader, page: PdfDict, known?: Set<number>): Promise<Map<number | string, { widget: boolean; text: string }>> {
  const list = await reader.direct(page.get('Annots'));
  const out = new Map<number | string, { widget: boolean; text: string }>();
  for (const item of Array.isArray(list) ? list : []) {
    const annotation = await reader.direct(item);
    if (!(annotation instanceof PdfDict)) continue;
    // Its appearance streams (normal, rollover, down; each a stream or one per state) belong to it.
    const appearances = await reader.direct(annotation.get('AP'));
    for (const appearance of appearances instanceof PdfDict ? appearances.entries.values() : []) {
      const states = await reader.direct(appearance);
      [appearance, ...(states instanceof PdfDict ? states.entries.values() : [])].flatMap(refNumber).forEach((num) => known?.add(num));
    }
    const text = formatPdfValue(annotation);
    out.set(item instanceof PdfRef ? item.num : text, { widget: (annotation.get('Subtype') as PdfName | undefined)?.name === 'Widget', text });
  }
  return out;
}

/** The terminal AcroForm fields by full name, with their value (a signature field's is its signature dictionary's reference). */
async function fieldsOf(reader: PdfDocumentReader, catalog: PdfDict, known: Set<number>): Promise<Map<string, Field>> {
  const fields = new Map<string, Field>();
  const acroForm = await reader.direct(catalog.get('AcroForm'));
  const walk = async (list: PdfValue | undefined, prefix: string, inheritedType: string | undefined, depth: number): Promise<void> => {
    if (!Array.isArray(list) || depth > MAX_TREE_DEPTH) return;
    for (const item of list) {
      if (fields.size >= MAX_FIELDS) return;
      const field = await reader.direct(item);
      if (!(field instanceof PdfDict)) continue;
      [item, field.get('Kids'), field.get('V')].flatMap(refNumber).forEach((num) => known.add(num));
      const title = await reader.direct(field.get('T'));
      const name = title instanceof PdfString ? `${prefix}${pdfText(title.bytes)}` : prefix.replace(/\.$/, '');
      const type = (field.get('FT') as PdfName | undefined)?.name ?? inheritedType;
      const kids = await reader.direct(field.get('Kids'));
      const named = Array.isArray(kids) && kids.length > 0 && (await Promise.all(kids.map((kid) => reader.direct(kid)))).some((kid) => kid instanceof PdfDict && kid.get('T') !== undefined);
      if (named) await walk(kids, `${name}.`, type, depth + 1);
      else fields.set(name, await fieldValue(reader, field, type));
    }
  };
  if (acroForm instanceof PdfDict) {
    refNumber(acroForm.get('Fields')).forEach((num) => known.add(num));
    await walk(await reader.direct(acroForm.get('Fields')), '', undefined, 0);
  }
  return fields;
}

async function fieldValue(reader: PdfDocumentReader, field: PdfDict, type: string | undefined): Promise<Field> {
  const value = field.get('V');
  if (type !== 'Sig') return { signature: null, value: value === undefined ? '' : formatPdfValue((await reader.direct(value)) ?? null) };
  const dict = await reader.direct(value);
  if (!(dict instanceof PdfDict)) return { signature: 'signature', value: '' };
  const timestamp = (dict.get('Type') as PdfName | undefined)?.name === 'DocTimeStamp' || (dict.get('SubFilter') as PdfName | undefined)?.name === 'ETSI.RFC3161';
  return { signature: timestamp ? 'timestamp' : 'signature', value: value instanceof PdfRef ? `${value.num} ${value.gen} R` : formatPdfValue(dict.get('Contents') ?? null) };
}
