import type { SignatureScheme } from '../tokens/token.js';
import { UnsupportedSignerError } from './signing-errors.js';

/** The certificate's side of the decision: its key type, and whether the key is id-RSASSA-PSS (PSS only, RFC 4055). */
export interface CertificateKey {
  keyAlgorithm: 'RSA' | 'ECDSA';
  pssOnly: boolean;
}

/**
 * How the key signs, decided from both sides, for every format (CMS in PAdES, XAdES in ASiC-E) and every path
 * (CLI, signing sessions from a web page, the iframe helper, the station window): the certificate, and the schemes
 * the key's token allows it (`keySchemes`, from TokenCertificate.signatureSchemes; absent, no restriction).
 * An rsaEncryption key that may make PKCS#1 v1.5 signatures keeps making them: every validator knows them (poppler's
 * pdfsig refuses RSA-PSS); it signs with PSS only where the certificate or the token leaves nothing else.
 */
export function signatureSchemeFor(certificate: CertificateKey, keySchemes?: readonly SignatureScheme[]): SignatureScheme {
  const candidates: SignatureScheme[] = certificate.keyAlgorithm === 'ECDSA' ? ['ECDSA'] : certificate.pssOnly ? ['RSA-PSS'] : ['RSASSA-PKCS1-v1_5', 'RSA-PSS'];
  const scheme = candidates.find((candidate) => keySchemes === undefined || keySchemes.includes(candidate));
  if (scheme) return scheme;
  const allowed = keySchemes!.length > 0 ? `only ${keySchemes!.join(', ')}` : 'no mechanism the station can sign a precomputed hash with (CKM_RSA_PKCS, CKM_RSA_PKCS_PSS)';
  throw new UnsupportedSignerError(`The certificate's key signs with ${candidates.join(' or ')}, and its token allows it ${allowed}.`);
}
