export interface CommandApduFields {
  cla?: number;
  ins: number;
  p1: number;
  p2: number;
  data?: Uint8Array;
  /** Expected response length: 256 (short) or 65536 (extended) ask for "as much as there is"; 0 or absent for none. */
  le?: number;
  /** Encode Lc/Le in extended form (ISO 7816-4 5.1); required when data exceeds 255 bytes or Le exceeds 256. */
  extended?: boolean;
}

/**
 * Encodes an ISO 7816-4 command APDU (cases 1-4, short or extended). Hand-written: the `smartcard` package moves
 * bytes only, and the encoding is a dozen lines the driver must control exactly (Le 00 vs 0000, extended Lc).
 */
export function encodeCommandApdu(fields: CommandApduFields): Buffer {
  const data = fields.data ?? new Uint8Array(0);
  const le = fields.le ?? 0;
  const extended = fields.extended ?? false;
  if (!extended && (data.length > 255 || le > 256)) throw new RangeError('short APDU: data over 255 bytes or Le over 256');
  if (data.length > 65535 || le > 65536) throw new RangeError('APDU data or Le too long');
  const header = Buffer.from([fields.cla ?? 0x00, fields.ins, fields.p1, fields.p2]);
  const parts: Uint8Array[] = [header];
  if (data.length > 0) {
    parts.push(extended ? Buffer.from([0x00, data.length >> 8, data.length & 0xff]) : Buffer.from([data.length]), data);
  }
  if (le > 0) {
    const value = le === (extended ? 65536 : 256) ? 0 : le;
    if (!extended) parts.push(Buffer.from([value]));
    else parts.push(data.length > 0 ? Buffer.from([value >> 8, value & 0xff]) : Buffer.from([0x00, value >> 8, value & 0xff]));
  }
  return Buffer.concat(parts);
}

export interface ResponseApdu {
  data: Buffer;
  sw: number;
}

export function decodeResponseApdu(bytes: Buffer): ResponseApdu {
  if (bytes.length < 2) throw new RangeError(`response too short: ${bytes.length} bytes`);
  return { data: bytes.subarray(0, bytes.length - 2), sw: bytes.readUInt16BE(bytes.length - 2) };
}
