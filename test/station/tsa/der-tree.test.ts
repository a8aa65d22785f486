import { describe, expect, it } from 'vitest';
import { DerTag, derTlv, derTree, derWrite } from '../../../src/station/tsa/der.js';

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
