import { open, type FileHandle } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { PdfDocumentReader } from '../signing/pdf/pdf-document-reader.js';
import { UnsupportedDocumentError } from '../signing/signing-errors.js';
import { PdfDict, PdfName, PdfRef, PdfString, type PdfValue } from '../signing/pdf/pdf-object.js';
import { pdfText } from './pdf-text.js';

/** One signature dictionary of a PDF: what it signs (/ByteRange), its CMS (/Contents) and what it says. */
export interface PdfSignatureField {
  byteRange: [number, number, number, number];
  cms: Uint8Array;
  /** ETSI.RFC3161 for a document timestamp, ETSI.CAdES.detached or adbe.pkcs7.detached for signatures. */
  subFilter: string;
  reason: string | null;
  /** /M, as the signer's clock said. */
  claimedTime: Date | null;
  /** The form fields this signature locks (FieldMDP), or null. */
  lock: PdfFieldLock | null;
}

/** Fields a signature locks against later changes (ISO 32000-1 12.7.4.5, 12.8.2.4): all, only these, all but these. */
export interface PdfFieldLock {
  action: 'All' | 'Include' | 'Exclude';
  fields: string[];
}

export interface PdfSignatures {
  size: number;
  fields: PdfSignatureField[];
  /** DER CRLs and whole OCSP responses in the document security store (/DSS): validation data for B-LT. */
  dss: { crls: Uint8Array[]; ocsps: Uint8Array[] } | undefined;
  /** Streams the signed byte ranges of one field through `update`. */
  readRanges(field: PdfSignatureField, update: (chunk: Uint8Array) => void): Promise<void>;
  /** The whole document, as it is now. */
  reader: PdfDocumentReader;
  /** Its cross-reference data was damaged: the objects were found by scanning the file. */
  recovered: boolean;
  /** The document as it was when it was `length` bytes long: the revision a signature's /ByteRange ends with. */
  revision(length: number): Promise<PdfDocumentReader>;
  /** The bytes at a position (what a ByteRange leaves out), at most what the file holds. */
  readBytes(position: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

const MAX_FIELDS = 10_000;
const CHUNK = 1024 * 1024;

/** Finds the signature fields of a PDF through its AcroForm (ISO 32000-1 12.7, 12.8) with the station's reader. */
export async function readPdfSignatures(path: string): Promise<PdfSignatures> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    try {
      return await readThrough(file, size, await PdfDocumentReader.open(file, size, { readEncrypted: true }), false);
    } catch (error) {
      // A damaged cross-reference table is read again by scanning the objects.
      if (!(error instanceof UnsupportedDocumentError)) throw error;
      try {
        return await readThrough(file, size, await PdfDocumentReader.recover(file, size), true);
      } catch {
        throw error; // when scanning fails too, the first fault is the one to tell
      }
    }
  } catch (error) {
    await file.close();
    throw error;
  }
}

async function readThrough(file: FileHandle, size: number, reader: PdfDocumentReader, recovered: boolean): Promise<PdfSignatures> {
  const catalog = await reader.direct(reader.trailer.get('Root'));
  const fields: PdfSignatureField[] = [];
  if (catalog instanceof PdfDict) {
    const acroForm = await reader.direct(catalog.get('AcroForm'));
    if (acroForm instanceof PdfDict) await collectFields(reader, await reader.direct(acroForm.get('Fields')), fields);
  }
  const dss = catalog instanceof PdfDict ? await readDss(reader, await reader.direct(catalog.get('DSS'))) : undefined;
  const readBytes = async (position: number, length: number): Promise<Uint8Array> => {
    const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
    return buffer.subarray(0, bytesRead);
  };
  const revision = (length: number): Promise<PdfDocumentReader> => PdfDocumentReader.open(file, length, { readEncrypted: true });
  return { size, fields, dss, reader, recovered, revision, readRanges: (field, update) => readRanges(file, field, update), readBytes, close: () => file.close() };
}

async function collectFields(reader: PdfDocumentReader, list: PdfValue | undefined, into: PdfSignatureField[], depth = 0): Promise<void> {
  if (!Array.isArray(list) || depth > 16) return;
  for (const item of list) {
    if (into.length >= MAX_FIELDS) return;
    const field = await reader.direct(item);
    if (!(field instanceof PdfDict)) continue;
    await collectFields(reader, await reader.direct(field.get('Kids')), into, depth + 1);
    const value = await reader.direct(field.get('V'));
    const signature = value instanceof PdfDict ? signatureField(value, await fieldLock(reader, field, value)) : undefined;
    if (signature) into.push(signature);
  }
}

/** A signature's FieldMDP transform (its /Reference), else its field's /Lock dictionary. */
async function fieldLock(reader: PdfDocumentReader, field: PdfDict, signature: PdfDict): Promise<PdfFieldLock | null> {
  const references = await reader.direct(signature.get('Reference'));
  for (const item of Array.isArray(references) ? references : []) {
    const reference = await reader.direct(item);
    if (reference instanceof PdfDict && (reference.get('TransformMethod') as PdfName | undefined)?.name === 'FieldMDP') return lockOf(reader, await reader.direct(reference.get('TransformParams')));
  }
  return lockOf(reader, await reader.direct(field.get('Lock')));
}

async function lockOf(reader: PdfDocumentReader, params: PdfValue | undefined): Promise<PdfFieldLock | null> {
  if (!(params instanceof PdfDict)) return null;
  const action = (params.get('Action') as PdfName | undefined)?.name;
  if (action !== 'All' && action !== 'Include' && action !== 'Exclude') return null;
  const list = await reader.direct(params.get('Fields'));
  const names = Array.isArray(list) ? await Promise.all(list.map((name) => reader.direct(name))) : [];
  return { action, fields: names.filter((name): name is PdfString => name instanceof PdfString).map((name) => pdfText(name.bytes)) };
}

function signatureField(dict: PdfDict, lock: PdfFieldLock | null): PdfSignatureField | undefined {
  const range = dict.get('ByteRange');
  const contents = dict.get('Contents');
  if (!Array.isArray(range) || range.length !== 4 || !range.every((n) => typeof n === 'number') || !(contents instanceof PdfString)) return undefined;
  const subFilter = dict.get('SubFilter');
  const reason = dict.get('Reason');
  const time = dict.get('M');
  return {
    byteRange: range as [number, number, number, number],
    cms: contents.bytes,
    subFilter: subFilter instanceof PdfName ? subFilter.name : '',
    reason: reason instanceof PdfString ? pdfText(reason.bytes) : null,
    claimedTime: time instanceof PdfString ? pdfDate(pdfText(time.bytes)) : null,
    lock,
  };
}

async function readDss(reader: PdfDocumentReader, dss: PdfValue | undefined): Promise<PdfSignatures['dss']> {
  if (!(dss instanceof PdfDict)) return undefined;
  return { crls: await dssStreams(reader, dss, 'CRLs'), ocsps: await dssStreams(reader, dss, 'OCSPs') };
}

/** The decoded streams a /DSS array names (/CRLs, /OCSPs); anything else in it is passed over. */
async function dssStreams(reader: PdfDocumentReader, dss: PdfDict, key: string): Promise<Uint8Array[]> {
  const array = await reader.direct(dss.get(key));
  const refs = Array.isArray(array) ? array.filter((ref): ref is PdfRef => ref instanceof PdfRef) : [];
  const decoded = await Promise.all(refs.map(async (ref) => streamBytes(await reader.object(ref.num))));
  return decoded.filter((bytes): bytes is Uint8Array => bytes !== undefined);
}

function streamBytes(object: { value: PdfValue; stream?: Uint8Array }): Uint8Array | undefined {
  if (!object.stream || !(object.value instanceof PdfDict)) return undefined;
  const filter = object.value.get('Filter');
  if (filter === undefined) return object.stream;
  if (!(filter instanceof PdfName) || filter.name !== 'FlateDecode') return undefined;
  try {
    return inflateSync(object.stream);
  } catch {
    return undefined; // a damaged entry is validation data that cannot be used, not a reason to refuse the document
  }
}

async function readRanges(file: FileHandle, field: PdfSignatureField, update: (chunk: Uint8Array) => void): Promise<void> {
  const [start1, length1, start2, length2] = field.byteRange;
  for (const [start, length] of [[start1, length1], [start2, length2]] as const) {
    for (let done = 0; done < length; ) {
      const buffer = Buffer.alloc(Math.min(CHUNK, length - done));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, start + done);
      if (bytesRead === 0) return;
      update(buffer.subarray(0, bytesRead));
      done += bytesRead;
    }
  }
}


/** D:YYYYMMDDHHmmSS+HH'mm' (ISO 32000-1 7.9.4). */
function pdfDate(text: string): Date | null {
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(text);
  if (!m) return null;
  const zone = !m[7] || m[7] === 'Z' ? 'Z' : `${m[7].slice(0, 3)}:${m[7].replace(/'/g, '').slice(3, 5)}`;
  const date = new Date(`${m[1]}-${m[2] ?? '01'}-${m[3] ?? '01'}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}${zone}`);
  return Number.isNaN(date.getTime()) ? null : date;
}
