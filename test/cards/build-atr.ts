/**
 * An ATR offering T=0 and T=1 with the given historical bytes: TS=3B (direct convention), T0 announcing TD1 and
 * the historical byte count, TD1=80 (T=0, TD2 follows), TD2=01 (T=1), then TCK, the XOR of T0..the last
 * historical byte, which ISO 7816-3 requires once T=1 is offered.
 */
export function buildAtr(historical: Buffer): Buffer {
  if (historical.length > 15) throw new RangeError('at most 15 historical bytes');
  const body = Buffer.concat([Buffer.from([0x80 | historical.length, 0x80, 0x01]), historical]);
  const tck = body.reduce((x, b) => x ^ b, 0);
  return Buffer.concat([Buffer.from([0x3b]), body, Buffer.from([tck])]);
}
