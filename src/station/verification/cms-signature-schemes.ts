/** How a CMS signature value is checked: RSA PKCS#1 v1.5, RSA-PSS, ECDSA with DER (X9.62) or plain (BSI TR-03111) values. */
export interface CmsSignatureScheme {
  kind: 'rsa' | 'rsa-pss' | 'ecdsa' | 'plain-ecdsa';
  /** The digest the algorithm names, when it names one (sha256WithRSAEncryption does; rsaEncryption does not). */
  digestOid: string | undefined;
}

const SHA = { 1: '1.3.14.3.2.26', 224: '2.16.840.1.101.3.4.2.4', 256: '2.16.840.1.101.3.4.2.1', 384: '2.16.840.1.101.3.4.2.2', 512: '2.16.840.1.101.3.4.2.3' };
const SHA3 = { 224: '2.16.840.1.101.3.4.2.7', 256: '2.16.840.1.101.3.4.2.8', 384: '2.16.840.1.101.3.4.2.9', 512: '2.16.840.1.101.3.4.2.10' };

/**
 * The signature algorithm OIDs CMS signatures use (RFC 3370, RFC 5754, RFC 5758, NIST's SHA-3 arcs, BSI TR-03111
 * ecdsa-plain-*). Anything else, such as an elliptic curve's OID where the algorithm belongs, is no signature
 * algorithm at all.
 */
export const CMS_SIGNATURE_SCHEMES: Readonly<Record<string, CmsSignatureScheme>> = {
  '1.2.840.113549.1.1.1': { kind: 'rsa', digestOid: undefined },
  '1.2.840.113549.1.1.5': { kind: 'rsa', digestOid: SHA[1] },
  '1.2.840.113549.1.1.14': { kind: 'rsa', digestOid: SHA[224] },
  '1.2.840.113549.1.1.11': { kind: 'rsa', digestOid: SHA[256] },
  '1.2.840.113549.1.1.12': { kind: 'rsa', digestOid: SHA[384] },
  '1.2.840.113549.1.1.13': { kind: 'rsa', digestOid: SHA[512] },
  '2.16.840.1.101.3.4.3.13': { kind: 'rsa', digestOid: SHA3[224] },
  '2.16.840.1.101.3.4.3.14': { kind: 'rsa', digestOid: SHA3[256] },
  '2.16.840.1.101.3.4.3.15': { kind: 'rsa', digestOid: SHA3[384] },
  '2.16.840.1.101.3.4.3.16': { kind: 'rsa', digestOid: SHA3[512] },
  '1.2.840.113549.1.1.10': { kind: 'rsa-pss', digestOid: undefined },
  '1.2.840.10045.2.1': { kind: 'ecdsa', digestOid: undefined },
  '1.2.840.10045.4.1': { kind: 'ecdsa', digestOid: SHA[1] },
  '1.2.840.10045.4.3.1': { kind: 'ecdsa', digestOid: SHA[224] },
  '1.2.840.10045.4.3.2': { kind: 'ecdsa', digestOid: SHA[256] },
  '1.2.840.10045.4.3.3': { kind: 'ecdsa', digestOid: SHA[384] },
  '1.2.840.10045.4.3.4': { kind: 'ecdsa', digestOid: SHA[512] },
  '2.16.840.1.101.3.4.3.9': { kind: 'ecdsa', digestOid: SHA3[224] },
  '2.16.840.1.101.3.4.3.10': { kind: 'ecdsa', digestOid: SHA3[256] },
  '2.16.840.1.101.3.4.3.11': { kind: 'ecdsa', digestOid: SHA3[384] },
  '2.16.840.1.101.3.4.3.12': { kind: 'ecdsa', digestOid: SHA3[512] },
  '0.4.0.127.0.7.1.1.4.1.1': { kind: 'plain-ecdsa', digestOid: SHA[1] },
  '0.4.0.127.0.7.1.1.4.1.2': { kind: 'plain-ecdsa', digestOid: SHA[224] },
  '0.4.0.127.0.7.1.1.4.1.3': { kind: 'plain-ecdsa', digestOid: SHA[256] },
  '0.4.0.127.0.7.1.1.4.1.4': { kind: 'plain-ecdsa', digestOid: SHA[384] },
  '0.4.0.127.0.7.1.1.4.1.5': { kind: 'plain-ecdsa', digestOid: SHA[512] },
};
