// What a reader shows in one region of a page, through poppler: the text pdftotext extracts there and the pixels
// pdftoppm renders there. Regions are in points from the top-left corner of the page as displayed (after CropBox and
// /Rotate), which is how both tools crop.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

const cropArgs = (page: number, r: Region): string[] => ['-f', String(page), '-l', String(page), '-x', String(Math.round(r.x)), '-y', String(Math.round(r.y)), '-W', String(Math.round(r.width)), '-H', String(Math.round(r.height))];

export interface DisplayedPage {
  width: number;
  height: number;
  /**
   * Where the CropBox's displayed top-left corner lies in the MediaBox as displayed: pdftotext measures its crop
   * area from the MediaBox even where pdftoppm -cropbox measures from the CropBox.
   */
  cropOffset: { x: number; y: number };
}

/** The page as displayed (CropBox, after /Rotate), from `pdfinfo -box`. */
export async function displayedPage(file: string, page: number): Promise<DisplayedPage> {
  const { stdout } = await run('pdfinfo', ['-box', '-f', String(page), '-l', String(page), file]);
  const numbers = (label: string): number[] => {
    const line = new RegExp(`Page\\s+${page} ${label}:\\s+(.*)`).exec(stdout);
    if (!line) throw new Error(`pdfinfo shows no ${label} for page ${page}`);
    return line[1]!.trim().split(/\s+/).map(Number);
  };
  const [mx0, my0, mx1, my1] = numbers('MediaBox') as [number, number, number, number];
  const [cx0, cy0, cx1, cy1] = numbers('CropBox') as [number, number, number, number];
  const rotate = numbers('rot')[0]! % 360;
  const [width, height] = rotate % 180 === 90 ? [cy1 - cy0, cx1 - cx0] : [cx1 - cx0, cy1 - cy0];
  const cropOffset =
    rotate === 90 ? { x: cy0 - my0, y: cx0 - mx0 } : rotate === 180 ? { x: mx1 - cx1, y: cy0 - my0 } : rotate === 270 ? { x: my1 - cy1, y: mx1 - cx1 } : { x: cx0 - mx0, y: my1 - cy1 };
  return { width, height, cropOffset };
}

/** `pdftotext -x -y -W -H` over the region (given relative to the CropBox), in reading order. */
export async function textInRegion(file: string, page: number, region: Region): Promise<string> {
  const { cropOffset } = await displayedPage(file, page);
  const shifted = { ...region, x: region.x + cropOffset.x, y: region.y + cropOffset.y };
  const { stdout } = await run('pdftotext', [...cropArgs(page, shifted), '-enc', 'UTF-8', file, '-']);
  return stdout;
}

/** `pdftoppm -cropbox -gray` at 72 dpi (one pixel per point) over the region: the share of pixels that are not white. */
export async function inkInRegion(file: string, page: number, region: Region): Promise<number> {
  const { stdout } = await run('pdftoppm', ['-cropbox', '-gray', '-r', '72', '-singlefile', ...cropArgs(page, region), file], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 32).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a PGM image');
  const pixels = stdout.subarray(header[0].length);
  let ink = 0;
  for (const value of pixels) if (value < 250) ink++;
  return ink / pixels.length;
}

/** `pdftoppm -cropbox -gray` of a whole page at 72 dpi: width, height and one byte per pixel. */
async function renderPage(file: string, page: number): Promise<{ width: number; height: number; pixels: Buffer }> {
  const { stdout } = await run('pdftoppm', ['-cropbox', '-gray', '-r', '72', '-singlefile', '-f', String(page), '-l', String(page), file], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(stdout.subarray(0, 32).toString('latin1'));
  if (!header) throw new Error('pdftoppm did not write a PGM image');
  return { width: Number(header[1]), height: Number(header[2]), pixels: stdout.subarray(header[0].length) };
}

/**
 * How many of the page's inked pixels a change drew over: pixels that differ between the two renderings and were
 * not white before. 0 means whatever was added (a signature box) covers none of the page's content.
 */
export async function inkCoveredByChange(before: string, after: string, page: number): Promise<{ covered: number; changed: number }> {
  const [a, b] = await Promise.all([renderPage(before, page), renderPage(after, page)]);
  if (a.width !== b.width || a.height !== b.height) throw new Error('the two renderings differ in size');
  let covered = 0;
  let changed = 0;
  for (let i = 0; i < a.pixels.length; i++) {
    if (a.pixels[i] === b.pixels[i]) continue;
    changed++;
    if (a.pixels[i]! < 250) covered++;
  }
  return { covered, changed };
}
