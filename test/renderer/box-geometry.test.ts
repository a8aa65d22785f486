import { describe, expect, it } from 'vitest';
import { boxOf, clampBox, overlaps, placementOf, SIGNATURE_BOX } from '../../src/renderer/src/pdf-preview/box-geometry.js';

describe('the signature box on the page preview', () => {
  const page = { width: 712, height: 512 };
  const at = (left: number, top: number): { left: number; top: number; width: number; height: number } => ({ left, top, ...SIGNATURE_BOX });

  it('hands the station the box measured up from the displayed page’s bottom edge, at its size', () => {
    expect(placementOf(2, page, at(300, 150))).toEqual({ page: 2, x: 300, y: 512 - 150 - SIGNATURE_BOX.height, ...SIGNATURE_BOX });
    expect(placementOf(1, page, at(0, page.height - SIGNATURE_BOX.height))).toMatchObject({ x: 0, y: 0 });
    expect(placementOf(1, page, { left: 10, top: 20, width: 300, height: 100 })).toEqual({ page: 1, x: 10, y: 512 - 20 - 100, width: 300, height: 100 });
  });

  it('keeps the box on the page, in whole points that never end past an edge of a page with a fractional size', () => {
    expect(clampBox(page, at(-40, -5))).toEqual(at(0, 0));
    expect(clampBox(page, at(900, 900))).toEqual(at(712 - SIGNATURE_BOX.width, 512 - SIGNATURE_BOX.height));
    const odd = { width: 595.7, height: 841.9 };
    const clamped = clampBox(odd, at(1000, 1000));
    expect(clamped.left + SIGNATURE_BOX.width).toBeLessThanOrEqual(odd.width);
    expect(clamped.top + SIGNATURE_BOX.height).toBeLessThanOrEqual(odd.height);
    expect(placementOf(1, odd, clamped).y).toBeGreaterThanOrEqual(0);
  });

  it('resizes no smaller than the text needs and no larger than the page', () => {
    expect(clampBox(page, { left: 0, top: 0, width: 50, height: 10 })).toMatchObject(SIGNATURE_BOX);
    expect(clampBox(page, { left: 600, top: 0, width: 2000, height: 90 })).toEqual({ left: 0, top: 0, width: 712, height: 90 });
  });

  it('turns the station’s proposal into the box and tells when the box covers an area', () => {
    const box = boxOf(page, { x: 18, y: 18, ...SIGNATURE_BOX });
    expect(box).toEqual(at(18, 512 - 18 - SIGNATURE_BOX.height));
    expect(overlaps(page, box, [{ x: 0, y: 400, width: 712, height: 100 }])).toBe(false);
    expect(overlaps(page, box, [{ x: 200, y: 90, width: 20, height: 10 }])).toBe(true);
    expect(overlaps(page, box, [{ x: 238, y: 18, width: 20, height: 10 }])).toBe(false);
  });
});
