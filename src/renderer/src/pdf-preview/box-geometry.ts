import type { VisibleSignaturePlacement } from '../../../core/schemas/visible-signature-placement.js';

/** A page as displayed (after CropBox and /Rotate), in points. */
export interface PageSize {
  width: number;
  height: number;
}

/** The box in displayed points: its top-left corner from the page's top-left corner, as the preview lays it out, and its size. */
export interface BoxPosition {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** An area in points from the bottom-left corner of the displayed page, as the station answers and signing takes them. */
export interface PageArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The signature box's first size in points, room for the signer, the time and a two-line reason in 9 pt text; also
 * its smallest, so a resized box always fits the text signing lays out in it.
 */
export const SIGNATURE_BOX = { width: 220, height: 80 } as const;

/** Keeps the box on the page and no smaller than its first size (a page narrower than the box keeps it at its left edge, and signing says why). */
export function clampBox(page: PageSize, box: BoxPosition): BoxPosition {
  // Whole points, rounded down: the box never ends past the page edge by a fraction.
  const within = (value: number, room: number): number => Math.floor(Math.max(0, Math.min(value, room)));
  const width = Math.max(SIGNATURE_BOX.width, Math.min(box.width, page.width));
  const height = Math.max(SIGNATURE_BOX.height, Math.min(box.height, page.height));
  return { left: within(box.left, page.width - width), top: within(box.top, page.height - height), width: Math.floor(width), height: Math.floor(height) };
}

/** The box for an area given from the page's bottom-left corner (the station's proposal). */
export function boxOf(size: PageSize, area: PageArea): BoxPosition {
  return clampBox(size, { left: area.x, top: size.height - area.y - area.height, width: area.width, height: area.height });
}

/** Whether the box covers any of the areas (the page's painted content, earlier signatures). */
export function overlaps(size: PageSize, box: BoxPosition, areas: readonly PageArea[]): boolean {
  const bottom = size.height - box.top - box.height;
  return areas.some((area) => area.x < box.left + box.width && area.x + area.width > box.left && area.y < bottom + box.height && area.y + area.height > bottom);
}

/**
 * The placement the station takes: y measured up from the displayed page's bottom edge instead of down from its
 * top, so the same rectangle means the same spot on a cropped, offset or turned page.
 */
export function placementOf(page: number, size: PageSize, box: BoxPosition): VisibleSignaturePlacement {
  return { page, x: box.left, y: Math.max(0, size.height - box.top - box.height), width: box.width, height: box.height };
}
