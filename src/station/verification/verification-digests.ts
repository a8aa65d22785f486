/**
 * A digest algorithm as verification meets it: signatures made by others use more than the station signs with
 * (SHA-1, SHA-224, SHA-3). `acceptableUntil` is when it stopped being strong enough for signatures (ETSI TS 119
 * 312, as the reference validator's default policy has it); null while it still is.
 */
export interface VerificationDigest {
  name: string;
  oid: string;
  /** Name for node:crypto createHash / verify. */
  nodeName: string;
  acceptableUntil: Date | null;
}

export const VERIFICATION_DIGESTS: readonly VerificationDigest[] = [
  { name: 'MD5', oid: '1.2.840.113549.2.5', nodeName: 'md5', acceptableUntil: new Date('2004-08-01T00:00:00Z') },
  { name: 'SHA-1', oid: '1.3.14.3.2.26', nodeName: 'sha1', acceptableUntil: new Date('2012-08-01T00:00:00Z') },
  { name: 'SHA-224', oid: '2.16.840.1.101.3.4.2.4', nodeName: 'sha224', acceptableUntil: null },
  { name: 'SHA-256', oid: '2.16.840.1.101.3.4.2.1', nodeName: 'sha256', acceptableUntil: null },
  { name: 'SHA-384', oid: '2.16.840.1.101.3.4.2.2', nodeName: 'sha384', acceptableUntil: null },
  { name: 'SHA-512', oid: '2.16.840.1.101.3.4.2.3', nodeName: 'sha512', acceptableUntil: null },
  { name: 'SHA3-224', oid: '2.16.840.1.101.3.4.2.7', nodeName: 'sha3-224', acceptableUntil: null },
  { name: 'SHA3-256', oid: '2.16.840.1.101.3.4.2.8', nodeName: 'sha3-256', acceptableUntil: null },
  { name: 'SHA3-384', oid: '2.16.840.1.101.3.4.2.9', nodeName: 'sha3-384', acceptableUntil: null },
  { name: 'SHA3-512', oid: '2.16.840.1.101.3.4.2.10', nodeName: 'sha3-512', acceptableUntil: null },
];

/** The digest algorithm an OID names, when verification knows it. */
export const verificationDigestOf = (oid: string): VerificationDigest | undefined => VERIFICATION_DIGESTS.find((d) => d.oid === oid);
