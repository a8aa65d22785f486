import { X509Certificate } from 'node:crypto';
import type { TokenCertificate } from '../../core/schemas/token-description.js';
import type { SignatureScheme } from '../tokens/token.js';
import { signatureSchemeFor } from './signature-scheme-for.js';

/**
 * How a token's key signs what the station has it sign outside the signature formats (a login challenge, a Web
 * eID authentication token): the same decision as for documents (signatureSchemeFor), from the certificate's key
 * type (id-RSASSA-PSS keys sign PSS only) and the schemes the token allows the key.
 */
export function tokenKeyScheme(certificate: Pick<TokenCertificate, 'certificate' | 'keyAlgorithm' | 'signatureSchemes'>): SignatureScheme {
  const pssOnly = certificate.keyAlgorithm === 'RSA' && new X509Certificate(Buffer.from(certificate.certificate, 'base64')).publicKey.asymmetricKeyType === 'rsa-pss';
  return signatureSchemeFor({ keyAlgorithm: certificate.keyAlgorithm === 'EC' ? 'ECDSA' : 'RSA', pssOnly }, certificate.signatureSchemes);
}
