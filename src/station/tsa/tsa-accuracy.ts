import { DerTag, derSmallInteger, derTlv } from './der.js';

/** Accuracy of genTime as the TSA states it in every token (RFC 3161 2.4.2). */
export interface TsaAccuracy {
  seconds?: number;
  millis?: number;
  micros?: number;
}

/** The Accuracy DER; a TypeError for values RFC 3161 does not allow. */
export function encodeAccuracy(value: TsaAccuracy): Buffer {
  for (const unit of ['millis', 'micros'] as const) {
    const part = value[unit];
    if (part !== undefined && (!Number.isInteger(part) || part < 0 || part > 999)) throw new TypeError(`accuracy.${unit} is 0..999 (RFC 3161), got ${part}`);
  }
  const parts: Buffer[] = [];
  if (value.seconds) parts.push(derSmallInteger(value.seconds));
  if (value.millis) parts.push(derTlv(DerTag.ContextPrimitive0, derSmallInteger(value.millis).subarray(2)));
  if (value.micros) parts.push(derTlv(DerTag.ContextPrimitive1, derSmallInteger(value.micros).subarray(2)));
  if (parts.length === 0) throw new TypeError('An accuracy needs seconds, millis or micros');
  return derTlv(DerTag.Sequence, ...parts);
}
