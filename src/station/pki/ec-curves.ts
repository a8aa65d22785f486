/** The elliptic curves the station signs and verifies with (NIST P-curves, as cards, tokens and browsers use). */
export type NamedCurve = 'P-256' | 'P-384' | 'P-521';

export interface EcCurveInfo {
  readonly name: NamedCurve;
  /** namedCurve OID in a SubjectPublicKeyInfo. */
  readonly oid: string;
  /** Bytes of a field element: the width of r and of s in an r||s signature. */
  readonly fieldSize: number;
}

export const EC_CURVES: Readonly<Record<NamedCurve, EcCurveInfo>> = {
  'P-256': { name: 'P-256', oid: '1.2.840.10045.3.1.7', fieldSize: 32 },
  'P-384': { name: 'P-384', oid: '1.3.132.0.34', fieldSize: 48 },
  'P-521': { name: 'P-521', oid: '1.3.132.0.35', fieldSize: 66 },
};
