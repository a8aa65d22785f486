import { CertifiedDocumentError } from '../signing-errors.js';
import type { PdfDocumentReader } from './pdf-document-reader.js';
import { PdfDict, PdfName } from './pdf-object.js';

/**
 * A certified document (ISO 32000-1 12.8.2.2, /Perms /DocMDP) says which changes keep its certification valid:
 * P 1 allows none, P 2 allows filling forms and signing, P 3 also annotations. Adding a signature is allowed from P 2
 * on; with P 1 it would break the certification, so the document is refused before anything is written.
 */
export async function refuseCertifiedWithoutChanges(reader: PdfDocumentReader, catalog: PdfDict): Promise<void> {
  const perms = await reader.direct(catalog.get('Perms'));
  const certification = perms instanceof PdfDict ? await reader.direct(perms.get('DocMDP')) : undefined;
  if (!(certification instanceof PdfDict)) return;
  const references = await reader.direct(certification.get('Reference'));
  for (const item of Array.isArray(references) ? references : []) {
    const reference = await reader.direct(item);
    if (!(reference instanceof PdfDict) || (reference.get('TransformMethod') as PdfName | undefined)?.name !== 'DocMDP') continue;
    const params = await reader.direct(reference.get('TransformParams'));
    const level = params instanceof PdfDict ? await reader.direct(params.get('P')) : undefined;
    // ISO 32000-1 table 254: P defaults to 2 when absent.
    if (level === 1) throw new CertifiedDocumentError();
  }
}
