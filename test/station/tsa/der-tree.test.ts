import { describe, expect, it } from 'vitest';
import * as asn1js from 'asn1js';
import { DerTag, derGeneralizedTime, derSmallInteger, derTlv, derTree, derWrite } from '../../../src/station/tsa/der.js';

describe('derTree / derWrite', () => {
  it('writes every length form as derTlv does: short, one and two and three length octets, nested', () => {
    for (const size of [0, 1, 127, 128, 255, 256, 300, 65535, 65536]) {
      const contents = Buffer.alloc(size, size & 0xff);
      const inner = derTree(DerTag.OctetString, contents);
      const tree = derTree(DerTag.Sequence, Uint8Array.of(2, 1, 5), inner, derTree(DerTag.Set));
      const expected = derTlv(DerTag.Sequence, Uint8Array.of(2, 1, 5), derTlv(DerTag.OctetString, contents), derTlv(DerTag.Set));
      expect(tree.size).toBe(expected.length);
      expect(derWrite(tree).equals(expected), `contents of ${size} bytes`).toBe(true);
    }
  });

  it('references its parts instead of copying them until it is written', () => {
    const part = Buffer.from([1, 2, 3]);
    const tree = derTree(DerTag.OctetString, part);
    part[0] = 9;
    expect([...derWrite(tree)]).toEqual([DerTag.OctetString, 3, 9, 2, 3]);
  });
});

describe('derSmallInteger / derGeneralizedTime', () => {
  it('encodes an INTEGER as asn1js does, at every octet boundary up to the largest safe integer', () => {
    for (const value of [0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 2 ** 23, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 47, Number.MAX_SAFE_INTEGER]) {
      const expected = Buffer.from(new asn1js.Integer({ valueHex: bigEndian(BigInt(value)) }).toBER());
      expect(derSmallInteger(value).toString('hex'), String(value)).toBe(expected.toString('hex'));
    }
  });

  it('refuses a negative, fractional or unsafe INTEGER', () => {
    for (const value of [-1, 1.5, 2 ** 53, Number.NaN]) expect(() => derSmallInteger(value)).toThrow(TypeError);
  });

  it('writes GeneralizedTime in UTC, its fraction without trailing zeros and none when zero', () => {
    const cases: Array<[string, string]> = [
      ['2026-11-21T05:06:07.120Z', '20261121050607.12Z'],
      ['2026-11-21T05:06:07.000Z', '20261121050607Z'],
      ['2026-11-21T05:06:07.001Z', '20261121050607.001Z'],
      ['2026-01-02T03:04:05.500Z', '20260102030405.5Z'],
      ['0001-01-01T00:00:00.999Z', '00010101000000.999Z'],
      ['9999-12-31T23:59:59.010Z', '99991231235959.01Z'],
    ];
    for (const [iso, text] of cases) {
      const encoded = derGeneralizedTime(new Date(iso));
      expect(encoded.toString('hex'), iso).toBe(derTlv(DerTag.GeneralizedTime, Buffer.from(text, 'latin1')).toString('hex'));
    }
  });

  it('refuses a time GeneralizedTime cannot hold', () => {
    for (const time of [new Date(Number.NaN), new Date('+010000-01-01T00:00:00Z'), new Date('-000001-01-01T00:00:00Z')]) expect(() => derGeneralizedTime(time)).toThrow(TypeError);
  });
});

function bigEndian(value: bigint): ArrayBuffer {
  const hex = value.toString(16);
  const padded = hex.length % 2 === 0 ? hex : `0${hex}`;
  // asn1js takes the two's-complement contents: a leading 00 keeps a high first bit positive.
  return Uint8Array.from(Buffer.from(Number.parseInt(padded.slice(0, 2), 16) >= 0x80 ? `00${padded}` : padded, 'hex')).buffer;
}

