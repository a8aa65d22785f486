import { EC_CURVES, type NamedCurve } from './ec-curves.js';
import { x509 } from './x509.js';

const CURVE_BY_RAW_LENGTH: ReadonlyMap<number, NamedCurve> = new Map(Object.values(EC_CURVES).map((curve) => [2 * curve.fieldSize, curve.name]));

type FormatterAlgorithm = Parameters<x509.AsnEcSignatureFormatter['toAsnSignature']>[0];
const ecdsa = (namedCurve: string): FormatterAlgorithm => ({ name: 'ECDSA', namedCurve }) as FormatterAlgorithm;

/**
 * ECDSA r||s (PKCS#11 CKM_ECDSA, WebCrypto, JWS) to the DER `ECDSA-Sig-Value` that CMS, XML-DSig and X.509 need.
 * The curve follows from the length; r and s are minimal INTEGERs (leading zeros dropped, 0x00 added when the top
 * bit is set).
 */
export function ecdsaRawToDer(raw: Uint8Array): Uint8Array {
  const namedCurve = CURVE_BY_RAW_LENGTH.get(raw.length);
  if (!namedCurve) throw new TypeError(`An r||s ECDSA signature is 64, 96 or 132 bytes, got ${raw.length}`);
  const der = new x509.AsnEcSignatureFormatter().toAsnSignature(ecdsa(namedCurve), new Uint8Array(raw));
  if (!der) throw new TypeError('Cannot encode the ECDSA signature');
  return new Uint8Array(der);
}

/** The inverse, for verifiers that want r||s: `curve` fixes the width of r and s. */
export function ecdsaDerToRaw(der: Uint8Array, namedCurve: NamedCurve): Uint8Array {
  const raw = new x509.AsnEcSignatureFormatter().toWebSignature(ecdsa(namedCurve), new Uint8Array(der));
  if (!raw) throw new TypeError('Not a DER ECDSA-Sig-Value');
  return new Uint8Array(raw);
}
