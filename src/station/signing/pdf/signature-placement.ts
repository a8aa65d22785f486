// Where the visible signature goes and how it is turned so it reads upright.
//
// Placement works in "viewer space": the page's visible area (CropBox within MediaBox) as a reader displays it after
// /Rotate, origin at its bottom-left corner, x to the right, y up. A caller's rectangle is given in that space, so
// it means the same on a cropped, offset or rotated page as on a plain one. By default the box goes where the page
// paints nothing and no earlier signature is: columns from the left edge rightwards, each from the bottom up. When
// the content cannot be read, or no free place is found, it goes to the bottom-left corner, a margin in, stacked
// above earlier visible signatures.
import { InvalidPlacementError } from '../signing-errors.js';
import type { PageGeometry } from './pdf-page-lookup.js';

export type Rect = [number, number, number, number];

/** A rectangle in viewer space: points from the bottom-left corner of the page as displayed. */
export interface ViewerRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MARGIN = 18;
const GAP = 6;

function viewerSize({ visible, rotate }: PageGeometry): { width: number; height: number } {
  const width = visible[2] - visible[0];
  const height = visible[3] - visible[1];
  return rotate === 90 || rotate === 270 ? { width: height, height: width } : { width, height };
}

/** One viewer-space point in default user space. */
function toUser({ visible: [x0, y0, x1, y1], rotate }: PageGeometry, vx: number, vy: number): [number, number] {
  if (rotate === 90) return [x1 - vy, y0 + vx];
  if (rotate === 180) return [x1 - vx, y1 - vy];
  if (rotate === 270) return [x0 + vy, y1 - vx];
  return [x0 + vx, y0 + vy];
}

/** One user-space point in viewer space (the inverse of toUser). */
function toViewer({ visible: [x0, y0, x1, y1], rotate }: PageGeometry, ux: number, uy: number): [number, number] {
  if (rotate === 90) return [uy - y0, x1 - ux];
  if (rotate === 180) return [x1 - ux, y1 - uy];
  if (rotate === 270) return [y1 - uy, ux - x0];
  return [ux - x0, uy - y0];
}

function normalise(a: [number, number], b: [number, number]): Rect {
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])];
}

/** The widget /Rect (default user space) for a viewer-space rectangle. */
export function userRect(geometry: PageGeometry, r: ViewerRect): Rect {
  return normalise(toUser(geometry, r.x, r.y), toUser(geometry, r.x + r.width, r.y + r.height));
}

/**
 * The appearance stream's /Matrix: turns the upright box [0 0 w h] by the page's /Rotate counter-clockwise, which
 * the viewer's clockwise page rotation undoes (ISO 32000-1 12.5.5 then maps the turned box onto /Rect).
 */
export function appearanceMatrix(geometry: PageGeometry): number[] {
  const radians = (geometry.rotate * Math.PI) / 180;
  const [cos, sin] = [Math.round(Math.cos(radians)), Math.round(Math.sin(radians))];
  return [cos, sin, -sin, cos, 0, 0];
}

/** Checks a caller's rectangle: inside the visible page, and tall and wide enough for the text. */
export function checkedRect(geometry: PageGeometry, rect: ViewerRect, needs: { minWidth: number; height: number }): ViewerRect {
  const page = viewerSize(geometry);
  const values = [rect.x, rect.y, rect.width, rect.height];
  if (!values.every(Number.isFinite)) throw new InvalidPlacementError('The signature rectangle needs finite x, y, width and height.');
  if (rect.x < 0 || rect.y < 0 || rect.x + rect.width > page.width || rect.y + rect.height > page.height) {
    throw new InvalidPlacementError(`The signature rectangle is outside the visible page (${page.width} x ${page.height} pt, origin at its bottom-left corner as displayed).`);
  }
  if (rect.width < needs.minWidth || rect.height < needs.height) {
    throw new InvalidPlacementError(`The signature rectangle is too small for its text at 9 pt: it needs at least ${Math.ceil(needs.minWidth)} x ${Math.ceil(needs.height)} pt.`);
  }
  return rect;
}

/** Default box width: the standard width, narrowed on small pages. */
export function defaultWidth(geometry: PageGeometry, standard: number): number {
  return Math.min(standard, viewerSize(geometry).width - 2 * MARGIN);
}

const STEP = 6;
const COLUMN_STEP = 24;
/** Room kept between the box and the content around it. */
const CLEARANCE = 3;

export function toViewerRect(geometry: PageGeometry, [x0, y0, x1, y1]: Rect): Rect {
  return normalise(toViewer(geometry, x0, y0), toViewer(geometry, x1, y1));
}

/**
 * The first place, scanning columns from the left edge to the right edge and each from the bottom up, that overlaps
 * neither `painted` nor `existing` (user-space areas); undefined when there is none.
 */
export function freeRect(geometry: PageGeometry, size: { width: number; height: number }, painted: readonly Rect[], existing: readonly Rect[]): ViewerRect | undefined {
  const page = viewerSize(geometry);
  const obstacles = [...painted, ...existing].map((area) => toViewerRect(geometry, area));
  const clear = (x: number, y: number): boolean =>
    obstacles.every(([ox0, oy0, ox1, oy1]) => ox1 <= x - CLEARANCE || ox0 >= x + size.width + CLEARANCE || oy1 <= y - CLEARANCE || oy0 >= y + size.height + CLEARANCE);
  const lastX = page.width - MARGIN - size.width;
  const columns = [...Array.from({ length: Math.max(0, Math.floor((lastX - MARGIN) / COLUMN_STEP)) + 1 }, (_, i) => MARGIN + i * COLUMN_STEP), lastX];
  for (const x of columns) {
    for (let y = MARGIN; y + size.height <= page.height - MARGIN; y += STEP) if (clear(x, y)) return { x, y, ...size };
  }
  return undefined;
}

/** The fallback place: bottom-left, above the visible signatures already on the page (their user-space /Rects). */
export function defaultRect(geometry: PageGeometry, size: { width: number; height: number }, existing: readonly Rect[]): ViewerRect {
  let y = MARGIN;
  for (const area of existing) y = Math.max(y, toViewerRect(geometry, area)[3] + GAP);
  if (y + size.height > viewerSize(geometry).height - MARGIN) {
    throw new InvalidPlacementError('No room is left for another visible signature at the bottom of this page: give a page or a rectangle.');
  }
  return { x: MARGIN, y, width: size.width, height: size.height };
}
