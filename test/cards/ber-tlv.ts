/** BER-TLV encoding with definite lengths (short form, 81 xx, 82 xx xx), as PIV data objects use. */
export function tlv(tag: number, ...values: Uint8Array[]): Buffer {
  const value = Buffer.concat(values);
  const tagBytes = tag > 0xffff ? Buffer.from([tag >> 16, (tag >> 8) & 0xff, tag & 0xff]) : tag > 0xff ? Buffer.from([tag >> 8, tag & 0xff]) : Buffer.from([tag]);
  const n = value.length;
  const length = n < 0x80 ? Buffer.from([n]) : n <= 0xff ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([tagBytes, length, value]);
}

/** Reads the TLVs of one level: single-byte tags only (what PIV commands carry). */
export function readTlvs(bytes: Buffer): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let i = 0;
  while (i < bytes.length) {
    const tag = bytes[i++]!;
    let length = bytes[i++]!;
    if (length === 0x81) length = bytes[i++]!;
    else if (length === 0x82) {
      length = bytes.readUInt16BE(i);
      i += 2;
    }
    out.set(tag, bytes.subarray(i, i + length));
    i += length;
  }
  return out;
}
