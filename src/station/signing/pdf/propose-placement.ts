import { open } from 'node:fs/promises';
import type { DeskPlacementResponse } from '../../../core/schemas/desk-api.js';
import { UnsupportedDocumentError } from '../signing-errors.js';
import { PdfDocumentReader } from './pdf-document-reader.js';
import { PdfDict } from './pdf-object.js';
import { findPage } from './pdf-page-lookup.js';
import { readSignatureForm } from './pdf-signature-update.js';
import { pagePaintedAreas } from './page-painted-areas.js';
import { defaultRect, freeRect, toViewerRect } from './signature-placement.js';

/**
 * Where a visible signature of `size` would go on a page when no rectangle is given (the place signing picks), and
 * the areas the page already paints or signs, for a preview to warn when the user moves the box over them.
 */
export async function proposePlacement(path: string, pageNumber: number, size: { width: number; height: number }): Promise<DeskPlacementResponse> {
  const handle = await open(path, 'r');
  try {
    const reader = await PdfDocumentReader.open(handle, (await handle.stat()).size);
    const catalog = await reader.direct(reader.trailer.get('Root'));
    if (!(catalog instanceof PdfDict)) throw new UnsupportedDocumentError('Malformed PDF: the catalog is not a dictionary.');
    const page = await findPage(reader, catalog, pageNumber);
    const signatures = (await readSignatureForm(reader, catalog)).signatureRects.get(page.ref.num) ?? [];
    const painted = await pagePaintedAreas(reader, page.dict);
    const proposed = (painted && freeRect(page.geometry, size, painted, signatures)) ?? defaultRect(page.geometry, size, signatures);
    const content = painted && [...painted, ...signatures].map((area) => {
      const [x0, y0, x1, y1] = toViewerRect(page.geometry, area);
      return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
    });
    return { proposed, ...(content ? { content } : {}) };
  } finally {
    await handle.close();
  }
}
