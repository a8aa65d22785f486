// The card side of ISO 7816-4 command APDUs: parses the four cases in short and extended form, and builds
// responses. Written by hand because it is the thing under test's counterpart: an emulated card must accept and
// reject exactly what a real one does, byte by byte.

export interface CommandApdu {
  cla: number;
  ins: number;
  p1: number;
  p2: number;
  data: Buffer;
  /** Expected response length; 0 when absent, 256 (short) or 65536 (extended) for a zero Le. */
  le: number;
  extended: boolean;
  /** CLA bit 0x10: more command data follows in the next APDU (command chaining). */
  chained: boolean;
}

export class ApduFormatError extends Error {}

export function parseCommandApdu(bytes: Buffer): CommandApdu {
  if (bytes.length < 4) throw new ApduFormatError(`APDU too short: ${bytes.length} bytes`);
  const [cla, ins, p1, p2] = [bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!];
  const base = { cla, ins, p1, p2, chained: (cla & 0x10) !== 0 };
  const body = bytes.subarray(4);
  if (body.length === 0) return { ...base, data: Buffer.alloc(0), le: 0, extended: false };
  if (body.length === 1) return { ...base, data: Buffer.alloc(0), le: body[0] || 256, extended: false };
  if (body[0] !== 0) {
    const lc = body[0]!;
    if (body.length === 1 + lc) return { ...base, data: Buffer.from(body.subarray(1)), le: 0, extended: false };
    if (body.length === 2 + lc) return { ...base, data: Buffer.from(body.subarray(1, 1 + lc)), le: body[1 + lc] || 256, extended: false };
    throw new ApduFormatError('short APDU: Lc does not match the body');
  }
  // Extended forms start with 00 and a two-byte length.
  if (body.length === 3) return { ...base, data: Buffer.alloc(0), le: body.readUInt16BE(1) || 65536, extended: true };
  const lc = body.readUInt16BE(1);
  if (lc === 0) throw new ApduFormatError('extended APDU: Lc of zero');
  if (body.length === 3 + lc) return { ...base, data: Buffer.from(body.subarray(3)), le: 0, extended: true };
  if (body.length === 5 + lc) return { ...base, data: Buffer.from(body.subarray(3, 3 + lc)), le: body.readUInt16BE(3 + lc) || 65536, extended: true };
  throw new ApduFormatError('extended APDU: Lc does not match the body');
}

export const SW = {
  OK: 0x9000,
  WARNING_END_OF_FILE: 0x6282,
  WRONG_LENGTH: 0x6700,
  SECURITY_NOT_SATISFIED: 0x6982,
  AUTH_METHOD_BLOCKED: 0x6983,
  CONDITIONS_NOT_SATISFIED: 0x6985,
  WRONG_DATA: 0x6a80,
  FUNCTION_NOT_SUPPORTED: 0x6a81,
  FILE_NOT_FOUND: 0x6a82,
  INCORRECT_P1P2: 0x6a86,
  REFERENCED_DATA_NOT_FOUND: 0x6a88,
  WRONG_P1P2: 0x6b00,
  INS_NOT_SUPPORTED: 0x6d00,
  CLA_NOT_SUPPORTED: 0x6e00,
  UNKNOWN: 0x6f00,
} as const;

export function response(sw: number, data: Uint8Array = Buffer.alloc(0)): Buffer {
  const out = Buffer.alloc(data.length + 2);
  out.set(data, 0);
  out.writeUInt16BE(sw, data.length);
  return out;
}
