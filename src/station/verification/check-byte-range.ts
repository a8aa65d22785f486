import type { VerdictFinding } from './verdict-finding.js';

/** What the ByteRange check reads of the file: its size and the bytes at a position. */
export interface ByteRangeFile {
  size: number;
  readBytes(position: number, length: number): Promise<Uint8Array>;
}

const HEX = /^[0-9a-fA-F]*$/;

/**
 * A PDF signature's /ByteRange must cover the file from its first byte, leave out exactly this signature's
 * /Contents (a hex string between the two ranges) and end inside the file. A range past the end signs bytes that
 * are not there, and a gap holding anything but this /Contents is signature wrapping: another signature's bytes
 * shown under this dictionary. Either is TOTAL-FAILED/FORMAT_FAILURE.
 */
export async function checkByteRange(file: ByteRangeFile, byteRange: readonly number[], contents: Uint8Array): Promise<VerdictFinding | undefined> {
  const fail = (reason: string): VerdictFinding => ({ indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE', reason });
  const [start1, length1, start2, length2] = byteRange as [number, number, number, number];
  if (!byteRange.every((n) => Number.isSafeInteger(n) && n >= 0) || start1 !== 0 || start2 < length1) return fail('the signature’s /ByteRange is malformed (it must start at 0 and its ranges must not overlap)');
  if (start2 + length2 > file.size) return fail('the signature’s /ByteRange runs past the end of the file');
  const gapLength = start2 - length1;
  if (gapLength > contents.length * 2 + 2 + 64) return fail('the signature’s /ByteRange leaves out more than its /Contents');
  const gap = Buffer.from(await file.readBytes(length1, gapLength)).toString('latin1').replace(/\s+/g, '');
  const hex = gap.slice(1, -1);
  if (!gap.startsWith('<') || !gap.endsWith('>') || !HEX.test(hex) || !Buffer.from(hex, 'hex').equals(Buffer.from(contents))) {
    return fail('the bytes the /ByteRange leaves out are not this signature’s /Contents (signature wrapping)');
  }
  return undefined;
}
