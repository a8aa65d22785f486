import { HASH_ALGORITHMS, type HashAlgorithm, type HashAlgorithmInfo } from '../pki/hash-algorithms.js';

export interface DigestAlgorithmInfo extends HashAlgorithmInfo {
  /** XML-DSig / XML-Enc URI. */
  xmlUri: string;
  ecdsaSignatureOid: string;
  rsaSignatureOid: string;
  xmlRsaUri: string;
  /** RSASSA-PSS with MGF1 and a hash-long salt (RFC 6931 2.3.10). */
  xmlRsaPssUri: string;
  xmlEcdsaUri: string;
}

/** The station's hash algorithms with the identifiers the signature formats (CMS, XML-DSig) name them by. */
export const digestAlgorithms: Readonly<Record<HashAlgorithm, DigestAlgorithmInfo>> = {
  'SHA-256': {
    ...HASH_ALGORITHMS['SHA-256'],
    xmlUri: 'http://www.w3.org/2001/04/xmlenc#sha256',
    ecdsaSignatureOid: '1.2.840.10045.4.3.2',
    rsaSignatureOid: '1.2.840.113549.1.1.11',
    xmlRsaUri: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    xmlRsaPssUri: 'http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1',
    xmlEcdsaUri: 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
  },
  'SHA-384': {
    ...HASH_ALGORITHMS['SHA-384'],
    xmlUri: 'http://www.w3.org/2001/04/xmldsig-more#sha384',
    ecdsaSignatureOid: '1.2.840.10045.4.3.3',
    rsaSignatureOid: '1.2.840.113549.1.1.12',
    xmlRsaUri: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
    xmlRsaPssUri: 'http://www.w3.org/2007/05/xmldsig-more#sha384-rsa-MGF1',
    xmlEcdsaUri: 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384',
  },
  'SHA-512': {
    ...HASH_ALGORITHMS['SHA-512'],
    xmlUri: 'http://www.w3.org/2001/04/xmlenc#sha512',
    ecdsaSignatureOid: '1.2.840.10045.4.3.4',
    rsaSignatureOid: '1.2.840.113549.1.1.13',
    xmlRsaUri: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
    xmlRsaPssUri: 'http://www.w3.org/2007/05/xmldsig-more#sha512-rsa-MGF1',
    xmlEcdsaUri: 'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512',
  },
};
