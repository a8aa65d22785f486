import { deflateSync } from 'node:zlib';
import { PdfDict, PdfName, formatPdfValue } from './pdf-object.js';

/** A FlateDecode stream object body (dictionary + stream), bytes carried as latin1 text like the rest of an update. */
export function compressedStream(data: Uint8Array, entries: Iterable<[string, number]> = []): string {
  const compressed = deflateSync(data);
  const dict = new PdfDict([...entries, ['Filter', new PdfName('FlateDecode')], ['Length', compressed.length]]);
  return `${formatPdfValue(dict)}\nstream\n${compressed.toString('latin1')}\nendstream`;
}
