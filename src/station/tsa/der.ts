// A minimal DER *writer* for the TSA hot path. The constant parts of every response (certificates, algorithm
// identifiers, ESSCertIDv2, the SignerInfo skeleton) are encoded once with @peculiar/asn1-* and asn1js when the
// authority opens; per request only a handful of small values change (serial, genTime, nonce, imprint,
// messageDigest, signature). Re-serialising the whole SignedData through a schema library costs several times
// the RSA signature itself, so the per-request pieces are concatenated here instead. Every shape produced is
// checked by `openssl ts -verify` and by parsing with @peculiar/asn1-tsp in the tests.

/** Universal and context tags used by the TSA encoder. */
export const DerTag = {
  Integer: 0x02,
  BitString: 0x03,
  OctetString: 0x04,
  Oid: 0x06,
  Utf8String: 0x0c,
  GeneralizedTime: 0x18,
  Sequence: 0x30,
  Set: 0x31,
  Context0: 0xa0,
  ContextPrimitive0: 0x80,
  ContextPrimitive1: 0x81,
} as const;

function lengthBytes(length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(length);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

/** Tag and length octets of an element with `length` content octets (short form below 128, else long form). */
function headerSize(length: number): number {
  if (length < 0x80) return 2;
  let size = 2;
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) size++;
  return size;
}

/** Tag, length and the concatenated contents. */
export function derTlv(tag: number, ...contents: readonly Uint8Array[]): Buffer {
  let total = 0;
  for (const part of contents) total += part.length;
  return Buffer.concat([Uint8Array.of(tag), lengthBytes(total), ...contents]);
}

/**
 * A non-negative INTEGER (a token's serial number, a version), written straight into its buffer: it runs for
 * every token.
 */
export function derSmallInteger(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`derSmallInteger needs a safe non-negative integer, got ${value}`);
  // Minimal two's complement: as many octets as keep the sign bit of the first one clear.
  let octets = 1;
  while (value >= 2 ** (8 * octets - 1)) octets++;
  const out = Buffer.allocUnsafe(2 + octets);
  out[0] = DerTag.Integer;
  out[1] = octets;
  for (let i = octets + 1, rest = value; i >= 2; i--, rest = Math.floor(rest / 256)) out[i] = rest % 256;
  return out;
}

/** A non-negative INTEGER from its big-endian magnitude (a token's serial number): minimal, sign bit clear. */
export function derUnsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const digits = magnitude.subarray(start);
  return (digits[0] ?? 0) & 0x80 ? derTlv(DerTag.Integer, Uint8Array.of(0), digits) : derTlv(DerTag.Integer, digits.length ? digits : Uint8Array.of(0));
}

/**
 * GeneralizedTime in UTC as RFC 3161 2.4.2 and X.690 require: `YYYYMMDDhhmmss[.fff]Z`, the fraction without
 * trailing zeros and left out when it is zero. Written digit by digit, since it runs for every token.
 */
export function derGeneralizedTime(time: Date): Buffer {
  const year = time.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) throw new TypeError(`genTime out of range: ${String(time)}`);
  let fraction = time.getUTCMilliseconds();
  let fractionDigits = fraction === 0 ? 0 : 3;
  while (fractionDigits > 0 && fraction % 10 === 0) {
    fraction /= 10;
    fractionDigits--;
  }
  const length = 15 + (fractionDigits > 0 ? fractionDigits + 1 : 0);
  const out = Buffer.allocUnsafe(2 + length);
  out[0] = DerTag.GeneralizedTime;
  out[1] = length;
  let at = writeDigits(out, 2, year, 4);
  at = writeDigits(out, at, time.getUTCMonth() + 1, 2);
  at = writeDigits(out, at, time.getUTCDate(), 2);
  at = writeDigits(out, at, time.getUTCHours(), 2);
  at = writeDigits(out, at, time.getUTCMinutes(), 2);
  at = writeDigits(out, at, time.getUTCSeconds(), 2);
  if (fractionDigits > 0) {
    out[at++] = 0x2e; // '.'
    at = writeDigits(out, at, fraction, fractionDigits);
  }
  out[at] = 0x5a; // 'Z'
  return out;
}

/** `value` as `width` ASCII decimal digits, zero-padded, at `offset`; returns the offset after them. */
function writeDigits(out: Buffer, offset: number, value: number, width: number): number {
  for (let i = offset + width - 1, rest = value; i >= offset; i--, rest = Math.floor(rest / 10)) out[i] = 0x30 + (rest % 10);
  return offset + width;
}

/**
 * A BIT STRING for an ASN.1 named-bit list (PKIFailureInfo): DER drops trailing zero bits, so the length and the
 * unused-bits octet follow from the highest bit set.
 */
export function derNamedBits(bits: readonly number[]): Buffer {
  if (bits.length === 0) return derTlv(DerTag.BitString, Uint8Array.of(0));
  const highest = Math.max(...bits);
  const bytes = new Uint8Array(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  return derTlv(DerTag.BitString, Uint8Array.of(7 - (highest & 7)), bytes);
}

/** Where one DER element sits in `bytes`: its tag and the end offset. Undefined for the BER indefinite form or a truncated header. */
export function derElementAt(bytes: Uint8Array, offset: number): { tag: number; contentStart: number; end: number } | undefined {
  if (offset + 2 > bytes.length) return undefined;
  const tag = bytes[offset]!;
  const first = bytes[offset + 1]!;
  if (first < 0x80) return { tag, contentStart: offset + 2, end: offset + 2 + first };
  const octets = first & 0x7f;
  if (octets === 0 || octets > 4 || offset + 2 + octets > bytes.length) return undefined;
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + bytes[offset + 2 + i]!;
  return { tag, contentStart: offset + 2 + octets, end: offset + 2 + octets + length };
}

/**
 * A DER element whose contents are referenced, not copied: the per-request tree of a TimeStampResp is assembled
 * from these and written once, into one buffer, by derWrite. Nesting derTlv calls would copy the whole
 * response (certificates included) again at every level.
 */
export interface DerTree {
  readonly tag: number;
  readonly parts: ReadonlyArray<Uint8Array | DerTree>;
  readonly contentLength: number;
  /** Encoded size: header and contents. */
  readonly size: number;
}

export function derTree(tag: number, ...parts: ReadonlyArray<Uint8Array | DerTree>): DerTree {
  let contentLength = 0;
  for (const part of parts) contentLength += part instanceof Uint8Array ? part.length : part.size;
  return { tag, parts, contentLength, size: headerSize(contentLength) + contentLength };
}

/** The DER encoding of `tree`, in one freshly allocated buffer. */
export function derWrite(tree: DerTree): Buffer {
  const out = Buffer.allocUnsafe(tree.size);
  const end = writeTree(out, 0, tree);
  if (end !== out.length) throw new Error(`DER tree wrote ${end} of ${out.length} bytes`);
  return out;
}

function writeTree(out: Buffer, start: number, tree: DerTree): number {
  let offset = start;
  out[offset++] = tree.tag;
  const length = tree.contentLength;
  const lengthOctets = headerSize(length) - 2;
  if (lengthOctets === 0) out[offset++] = length;
  else {
    out[offset++] = 0x80 | lengthOctets;
    for (let i = lengthOctets - 1, rest = length; i >= 0; i--, rest = Math.floor(rest / 256)) out[offset + i] = rest & 0xff;
    offset += lengthOctets;
  }
  for (const part of tree.parts) {
    if (part instanceof Uint8Array) {
      out.set(part, offset);
      offset += part.length;
    } else offset = writeTree(out, offset, part);
  }
  return offset;
}
