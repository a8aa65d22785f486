import { describe, expect, it } from 'vitest';
import { decodeResponseApdu, encodeCommandApdu } from '../../../../src/station/tokens/pcsc/command-apdu.js';
import { parseCommandApdu } from '../../../cards/command-apdu.js';

const hex = (b: Buffer) => b.toString('hex');

describe('command APDU encoding (ISO 7816-4 cases 1-4)', () => {
  it('encodes short forms, with Le 256 as 00', () => {
    expect(hex(encodeCommandApdu({ ins: 0x20, p1: 0, p2: 0x85 }))).toBe('00200085');
    expect(hex(encodeCommandApdu({ ins: 0xb0, p1: 0x01, p2: 0x02, le: 256 }))).toBe('00b0010200');
    expect(hex(encodeCommandApdu({ ins: 0x22, p1: 0x41, p2: 0xb6, data: Buffer.from([0x84, 0x01, 0x9f]) }))).toBe('002241b60384019f');
    expect(hex(encodeCommandApdu({ ins: 0x2a, p1: 0x9e, p2: 0x9a, data: Buffer.alloc(2, 0xaa), le: 256 }))).toBe('002a9e9a02aaaa00');
  });

  it('encodes extended forms: 00 LeHi LeLo without data, two-byte Le after extended Lc with data', () => {
    expect(hex(encodeCommandApdu({ ins: 0xb0, p1: 0, p2: 0, le: 1200, extended: true }))).toBe('00b000000004b0');
    expect(hex(encodeCommandApdu({ ins: 0xb0, p1: 0, p2: 0, le: 65536, extended: true }))).toBe('00b00000000000');
    const withData = encodeCommandApdu({ ins: 0x2a, p1: 0x9e, p2: 0x9a, data: Buffer.alloc(300, 1), le: 512, extended: true });
    expect(hex(withData.subarray(0, 7))).toBe('002a9e9a00012c');
    expect(hex(withData.subarray(-2))).toBe('0200');
  });

  it('round-trips through the emulated card’s parser', () => {
    for (const fields of [
      { ins: 0xa4, p1: 4, p2: 0x0c, data: Buffer.from('f053535445494401', 'hex') },
      { ins: 0xb0, p1: 0x10, p2: 0, le: 256 },
      { ins: 0xb0, p1: 0, p2: 0, le: 4000, extended: true },
      { ins: 0x88, p1: 0, p2: 0, data: Buffer.alloc(400, 7), le: 65536, extended: true },
    ]) {
      const parsed = parseCommandApdu(encodeCommandApdu(fields));
      expect(parsed.ins).toBe(fields.ins);
      expect(parsed.data.equals(fields.data ?? Buffer.alloc(0))).toBe(true);
      expect(parsed.le).toBe(fields.le ?? 0);
      expect(parsed.extended).toBe(fields.extended ?? false);
    }
  });

  it('refuses what short APDUs cannot carry, and responses without a status word', () => {
    expect(() => encodeCommandApdu({ ins: 0xb0, p1: 0, p2: 0, le: 257 })).toThrow(RangeError);
    expect(() => encodeCommandApdu({ ins: 0x2a, p1: 0, p2: 0, data: Buffer.alloc(256) })).toThrow(RangeError);
    expect(() => decodeResponseApdu(Buffer.from([0x90]))).toThrow(RangeError);
    expect(decodeResponseApdu(Buffer.from('01026a82', 'hex'))).toEqual({ data: Buffer.from([1, 2]), sw: 0x6a82 });
  });
});
