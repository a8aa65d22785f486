// The visible signature's appearance stream: who signed, when (with the time zone) and why, at 9 pt in an embedded
// subset of DejaVu Sans, so any Latin, Greek or Cyrillic name shows and can be copied out as text.
import { SignatureFontSubset } from './signature-font.js';
import type { StampLanguage } from '../../../core/schemas/stamp-language.js';
import { STAMP_LABELS } from './stamp-labels.js';

export const FONT_SIZE = 9;
const LEADING = 11;
const PADDING = 5;
/** Width of the box when the caller gives no rectangle. */
export const DEFAULT_APPEARANCE_WIDTH = 260;
const MAX_SIGNER_LINES = 2;
const MAX_REASON_LINES = 3;

export interface SignatureAppearanceText {
  signer: string;
  time: Date;
  /** IANA time zone the time is shown in; defaults to the station's. */
  timeZone?: string;
  reason?: string;
  /** The labels' language; English by default. */
  language?: StampLanguage;
}

export interface SignatureAppearance {
  /** Content stream, latin1 text. */
  content: string;
  width: number;
  height: number;
  /** The glyphs the content uses, to embed with it. */
  font: SignatureFontSubset;
}

/** "2026-11-24 21:42:02 UTC+02:00": an unambiguous local time with its offset. */
export function signingTimeText(time: Date, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    ...(timeZone ? { timeZone } : {}),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  }).formatToParts(time);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  const offset = part('timeZoneName').replace(/^GMT/, '') || '+00:00';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} UTC${offset}`;
}

/** Greedy word wrap by measured width; a word wider than a line is cut; the last kept line ends with '…'. */
function wrap(text: string, font: SignatureFontSubset, width: number, maxLines: number): string[] {
  const fits = (line: string): boolean => font.width(line, FONT_SIZE) <= width;
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    while (!fits(word)) {
      let cut = word.length - 1;
      while (cut > 1 && !fits(word.slice(0, cut))) cut--;
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
    }
    line = word;
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  let last = lines[maxLines - 1]!;
  while (last && !fits(`${last}…`)) last = last.slice(0, -1);
  return [...lines.slice(0, maxLines - 1), `${last}…`];
}

/** The lines of text and the height they need in a box `width` wide. */
export function appearanceLines(input: SignatureAppearanceText, width: number, font: SignatureFontSubset): { lines: string[]; height: number } {
  const inner = width - 2 * PADDING;
  const labels = STAMP_LABELS[input.language ?? 'en'];
  const lines = [
    ...wrap(labels.signedBy(input.signer), font, inner, MAX_SIGNER_LINES),
    ...wrap(`${labels.date}: ${signingTimeText(input.time, input.timeZone)}`, font, inner, 1),
    ...(input.reason ? wrap(`${labels.reason}: ${input.reason}`, font, inner, MAX_REASON_LINES) : []),
  ];
  return { lines, height: lines.length * LEADING + 2 * PADDING };
}

/** The appearance for a box of `width` x `height` (height at least what appearanceLines asked for). */
export function signatureAppearance(lines: readonly string[], width: number, height: number, font: SignatureFontSubset): SignatureAppearance {
  const text = lines.map((line, i) => `${i === 0 ? '' : 'T* '}${font.encode(line)} Tj`).join('\n');
  const content = [
    `q 0.94 0.96 1 rg 0 0 ${width} ${height} re f`,
    `0.2 0.3 0.6 RG 1 w 0.5 0.5 ${width - 1} ${height - 1} re S Q`,
    `BT 0 g /F1 ${FONT_SIZE} Tf ${LEADING} TL ${PADDING} ${height - PADDING - FONT_SIZE} Td`,
    text,
    'ET',
  ].join('\n');
  return { content, width, height, font };
}
