// The visible signature's appearance stream: who signed, when and why, in the standard Helvetica font (every PDF
// reader has it, so nothing is embedded). Text is WinAnsi encoded; characters outside it show as '?'.

const LINE_CHARS = 60;
const FONT_SIZE = 8;
const LEADING = 10;
export const APPEARANCE_WIDTH = 260;

function winAnsi(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    const c = ch.codePointAt(0)!;
    const byte = c >= 0x20 && c <= 0x7e ? c : c >= 0xa0 && c <= 0xff ? c : 0x3f;
    out += byte === 0x28 || byte === 0x29 || byte === 0x5c ? `\\${String.fromCharCode(byte)}` : String.fromCharCode(byte);
  }
  return out;
}

function wrap(text: string, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length <= LINE_CHARS) line = candidate;
    else {
      if (line) lines.push(line);
      line = word.slice(0, LINE_CHARS);
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1]!.slice(0, LINE_CHARS - 3)}...`;
  }
  return lines;
}

/** Returns the content stream (latin1 text) and the box height it needs. */
export function signatureAppearance(input: { signer: string; time: Date; reason?: string }): { content: string; height: number } {
  const lines = [
    ...wrap(`Digitally signed by ${input.signer}`, 2),
    `Date: ${input.time.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
    ...(input.reason ? wrap(`Reason: ${input.reason}`, 3) : []),
  ];
  const height = lines.length * LEADING + 8;
  const text = lines.map((l, i) => `${i === 0 ? '' : 'T* '}(${winAnsi(l)}) Tj`).join('\n');
  const content = [
    'q 0.94 0.96 1 rg 0 0 ' + `${APPEARANCE_WIDTH} ${height} re f`,
    `0.2 0.3 0.6 RG 1 w 0.5 0.5 ${APPEARANCE_WIDTH - 1} ${height - 1} re S Q`,
    `BT 0 g /F1 ${FONT_SIZE} Tf ${LEADING} TL 5 ${height - 4 - FONT_SIZE} Td`,
    text,
    'ET',
  ].join('\n');
  return { content, height };
}
