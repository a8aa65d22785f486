import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposePlacement } from '../../../src/station/signing/pdf/propose-placement.js';
import { writePagePdf } from '../../support/signing/signing-test-pdfs.js';
import { inkInRegion } from '../../support/signing/pdf-region.js';

describe('the first place the window proposes for a visible signature', () => {
  let dir: string;
  let busy: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'propose-placement-'));
    // Turned upside down: the left half filled, a block in the top-right corner and a footer line. As displayed, the
    // right half and the bottom-left corner (where a fixed rule would put the box) are covered.
    const content = '0.2 g 0 0 306 792 re f 306 592 306 200 re f BT /F1 12 Tf 1 0 0 1 320 24 Tm (Page 1 of 1 - footer text along the bottom) Tj ET';
    busy = await writePagePdf(join(dir, 'busy.pdf'), '/MediaBox [0 0 612 792] /Rotate 180', content);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is where the page paints nothing, and the page’s content comes with it in the same displayed coordinates', async () => {
    const { proposed, content } = await proposePlacement(busy, 1, { width: 220, height: 80 });
    expect(proposed).toMatchObject({ width: 220, height: 80 });
    // Poppler renders the page as displayed, from its top-left corner: no ink under the proposed box.
    expect(await inkInRegion(busy, 1, { x: proposed.x, y: 792 - proposed.y - proposed.height, width: 220, height: 80 })).toBe(0);
    expect(content?.length).toBeGreaterThan(0);
    const overlapping = (content ?? []).filter((area) => area.x < proposed.x + 220 && area.x + area.width > proposed.x && area.y < proposed.y + 80 && area.y + area.height > proposed.y);
    expect(overlapping).toEqual([]);
    // The filled half, turned with the page, is on the displayed right: the areas are in displayed coordinates.
    expect(content).toContainEqual(expect.objectContaining({ x: 306, y: 0, width: 306, height: 792 }));
    expect(content).toContainEqual(expect.objectContaining({ x: 0, y: 0, width: 306, height: 200 }));
  });

  it('refuses a page the document does not have, with the placement error', async () => {
    await expect(proposePlacement(busy, 2, { width: 220, height: 80 })).rejects.toMatchObject({ code: 'ERR_SIGNING_INVALID_PLACEMENT' });
  });
});
