import type { PdfDocumentReader } from './pdf-document-reader.js';
import { PdfDict, PdfName } from './pdf-object.js';

/**
 * A certified document's level (ISO 32000-1 12.8.2.2, /Perms /DocMDP, table 254): P 1 allows no changes, P 2
 * filling forms and signing, P 3 also annotations; 2 when P is absent. Null when the document is not certified.
 */
export async function certificationLevel(reader: PdfDocumentReader, catalog: PdfDict): Promise<1 | 2 | 3 | null> {
  const perms = await reader.direct(catalog.get('Perms'));
  const certification = perms instanceof PdfDict ? await reader.direct(perms.get('DocMDP')) : undefined;
  if (!(certification instanceof PdfDict)) return null;
  const references = await reader.direct(certification.get('Reference'));
  for (const item of Array.isArray(references) ? references : []) {
    const reference = await reader.direct(item);
    if (!(reference instanceof PdfDict) || (reference.get('TransformMethod') as PdfName | undefined)?.name !== 'DocMDP') continue;
    const params = await reader.direct(reference.get('TransformParams'));
    const level = params instanceof PdfDict ? await reader.direct(params.get('P')) : undefined;
    return level === 1 || level === 3 ? level : 2;
  }
  return 2;
}
