import { InvalidArgumentError, Option } from 'commander';
import type { ViewerRect } from '../../station/signing/pdf/signature-placement.js';

/**
 * `--page N` and `--rect X1,Y1,X2,Y2` of `sign --visible`, parsed by commander so a malformed value is a usage error
 * (exit 2) before any key is opened. The rectangle is two opposite corners in points, as a PDF /Rect is written, but
 * measured from the bottom-left corner of the page as a reader displays it (after CropBox and /Rotate). Whether the
 * page exists and the box fits inside it the engine checks against the document (ERR_SIGNING_INVALID_PLACEMENT).
 */
export function visiblePlacementOptions(): { page: Option; rect: Option } {
  return {
    page: new Option('--page <n>', 'PDF: the page the visible signature goes on (1 = first; default: the first)').argParser(parsePage),
    rect: new Option('--rect <x1,y1,x2,y2>', 'PDF: the visible signature’s box, corners in points from the page’s bottom-left corner as displayed (default: free space)').argParser(parseRect),
  };
}

function parsePage(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('a page number is a whole number from 1.');
  return Number(value);
}

function parseRect(value: string): ViewerRect {
  const numbers = value.split(',').map((part) => (/^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(part) ? Number(part) : Number.NaN));
  if (numbers.length !== 4 || !numbers.every(Number.isFinite)) {
    throw new InvalidArgumentError('give four numbers x1,y1,x2,y2: the corners of the box in points, e.g. 36,36,300,110.');
  }
  const [x1, y1, x2, y2] = numbers as [number, number, number, number];
  if (x2 <= x1 || y2 <= y1) throw new InvalidArgumentError('x2 must be right of x1 and y2 above y1 (bottom-left corner first, then top-right).');
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}
