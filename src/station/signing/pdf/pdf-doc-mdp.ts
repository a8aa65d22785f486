import { CertifiedDocumentError } from '../signing-errors.js';
import { certificationLevel } from './pdf-certification-level.js';
import type { PdfDocumentReader } from './pdf-document-reader.js';
import type { PdfDict } from './pdf-object.js';

/**
 * A certified document says which changes keep its certification valid: adding a signature is allowed from P 2 on;
 * with P 1 it would break the certification, so the document is refused before anything is written.
 */
export async function refuseCertifiedWithoutChanges(reader: PdfDocumentReader, catalog: PdfDict): Promise<void> {
  if ((await certificationLevel(reader, catalog)) === 1) throw new CertifiedDocumentError();
}
