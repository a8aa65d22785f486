import type { HashAlgorithm } from '../tokens/token.js';

export interface DigestAlgorithmInfo {
  /** Name for node:crypto createHash. */
  node: 'sha256' | 'sha384' | 'sha512';
  oid: string;
  /** XML-DSig / XML-Enc URI. */
  xmlUri: string;
  length: number;
  /** DER DigestInfo prefix: PKCS#1 v1.5 signs prefix || hash. */
  digestInfoPrefix: Uint8Array;
  ecdsaSignatureOid: string;
  rsaSignatureOid: string;
  xmlRsaUri: string;
  xmlEcdsaUri: string;
}

const hex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));

/** The digest algorithms the formats sign with, and their identifiers in each encoding. */
export const digestAlgorithms: Readonly<Record<HashAlgorithm, DigestAlgorithmInfo>> = {
  'SHA-256': {
    node: 'sha256',
    oid: '2.16.840.1.101.3.4.2.1',
    xmlUri: 'http://www.w3.org/2001/04/xmlenc#sha256',
    length: 32,
    digestInfoPrefix: hex('3031300d060960864801650304020105000420'),
    ecdsaSignatureOid: '1.2.840.10045.4.3.2',
    rsaSignatureOid: '1.2.840.113549.1.1.11',
    xmlRsaUri: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    xmlEcdsaUri: 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
  },
  'SHA-384': {
    node: 'sha384',
    oid: '2.16.840.1.101.3.4.2.2',
    xmlUri: 'http://www.w3.org/2001/04/xmldsig-more#sha384',
    length: 48,
    digestInfoPrefix: hex('3041300d060960864801650304020205000430'),
    ecdsaSignatureOid: '1.2.840.10045.4.3.3',
    rsaSignatureOid: '1.2.840.113549.1.1.12',
    xmlRsaUri: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
    xmlEcdsaUri: 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384',
  },
  'SHA-512': {
    node: 'sha512',
    oid: '2.16.840.1.101.3.4.2.3',
    xmlUri: 'http://www.w3.org/2001/04/xmlenc#sha512',
    length: 64,
    digestInfoPrefix: hex('3051300d060960864801650304020305000440'),
    ecdsaSignatureOid: '1.2.840.10045.4.3.4',
    rsaSignatureOid: '1.2.840.113549.1.1.13',
    xmlRsaUri: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
    xmlEcdsaUri: 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512',
  },
};
