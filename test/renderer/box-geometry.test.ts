import { describe, expect, it } from 'vitest';
import { clampBox, placementOf, SIGNATURE_BOX } from '../../src/renderer/src/pdf-preview/box-geometry.js';

describe('the signature box on the page preview', () => {
  const page = { width: 712, height: 512 };

  it('hands the station the box measured up from the displayed page’s bottom edge', () => {
    expect(placementOf(2, page, { left: 300, top: 150 })).toEqual({ page: 2, x: 300, y: 512 - 150 - SIGNATURE_BOX.height, ...SIGNATURE_BOX });
    expect(placementOf(1, page, { left: 0, top: page.height - SIGNATURE_BOX.height })).toMatchObject({ x: 0, y: 0 });
  });

  it('keeps the box on the page, in whole points that never end past an edge of a page with a fractional size', () => {
    expect(clampBox(page, { left: -40, top: -5 })).toEqual({ left: 0, top: 0 });
    expect(clampBox(page, { left: 900, top: 900 })).toEqual({ left: 712 - SIGNATURE_BOX.width, top: 512 - SIGNATURE_BOX.height });
    const odd = { width: 595.7, height: 841.9 };
    const clamped = clampBox(odd, { left: 1000, top: 1000 });
    expect(clamped.left + SIGNATURE_BOX.width).toBeLessThanOrEqual(odd.width);
    expect(clamped.top + SIGNATURE_BOX.height).toBeLessThanOrEqual(odd.height);
    expect(placementOf(1, odd, clamped).y).toBeGreaterThanOrEqual(0);
  });
});
