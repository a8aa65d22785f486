import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeskPlacementRequest, DeskPlacementResponse } from '../../core/schemas/desk-api.js';

/**
 * The Sign screen's first box position: the PDF goes to a private folder of the data directory (the PDF reader works
 * on files, to stream big ones), the page is searched as signing would, and the copy is deleted.
 */
export async function deskPlacement(request: DeskPlacementRequest, dataDir: string): Promise<DeskPlacementResponse> {
  const folder = await mkdtemp(join(dataDir, 'placement-'));
  try {
    const path = join(folder, 'document.pdf');
    await writeFile(path, Buffer.from(request.fileContent, 'base64'), { mode: 0o600 });
    // The PDF reader and the stamp's layout (fontkit, which unpacks its Unicode tables when loaded) come with the
    // first placement, not with the station's start.
    const { proposePlacement } = await import('../signing/pdf/propose-placement.js');
    return await proposePlacement(path, request.page, { width: request.width, height: request.height });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
