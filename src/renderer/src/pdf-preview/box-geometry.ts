import type { VisibleSignaturePlacement } from '../../../core/schemas/visible-signature-placement.js';

/** A page as displayed (after CropBox and /Rotate), in points. */
export interface PageSize {
  width: number;
  height: number;
}

/** The box's top-left corner in displayed points from the page's top-left corner, as the preview lays it out. */
export interface BoxPosition {
  left: number;
  top: number;
}

/** The signature box's size in points: room for the signer, the time and a two-line reason in 9 pt text. */
export const SIGNATURE_BOX = { width: 220, height: 80 } as const;

/** Keeps the box on the page (a page narrower than the box keeps the box at its left edge, and signing says why). */
export function clampBox(page: PageSize, box: BoxPosition): BoxPosition {
  // Whole points, rounded down: the box never ends past the page edge by a fraction.
  const within = (value: number, room: number): number => Math.floor(Math.max(0, Math.min(value, room)));
  return { left: within(box.left, page.width - SIGNATURE_BOX.width), top: within(box.top, page.height - SIGNATURE_BOX.height) };
}

/**
 * The placement the station takes: y measured up from the displayed page's bottom edge instead of down from its
 * top, so the same rectangle means the same spot on a cropped, offset or turned page.
 */
export function placementOf(page: number, size: PageSize, box: BoxPosition): VisibleSignaturePlacement {
  return { page, x: box.left, y: Math.max(0, size.height - box.top - SIGNATURE_BOX.height), width: SIGNATURE_BOX.width, height: SIGNATURE_BOX.height };
}
