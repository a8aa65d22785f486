import type { TokenCertificate } from '../../core/schemas/token-description.js';
import { x509 } from './x509.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { isValidAt } from './certificate-validity.js';

export interface CertificateSummary extends TokenCertificate {
  /** CA certificates (the chain a token or a PKCS#12 file carries) are never offered for signing. */
  isCa: boolean;
}

/**
 * What the UI, the CLI and the certificate choice show for a certificate on a token or in a store.
 * Usage follows the key usage bits: non-repudiation (contentCommitment) is a signing certificate even when
 * digitalSignature is also set; digitalSignature alone is an authentication certificate. A holder that knows better
 * (an ID card's signing and authentication key slots) passes `usage`.
 */
export function summarizeCertificate(der: Uint8Array, id: string, now: Date, usage?: TokenCertificate['usage']): CertificateSummary {
  const certificate = parseCertificate(der);
  const algorithm = certificate.publicKey.algorithm as { name: string; namedCurve?: string; modulusLength?: number };
  const isEc = algorithm.name === 'ECDSA' || algorithm.name === 'ECDH';
  return {
    id,
    certificate: Buffer.from(der).toString('base64'),
    usage: usage ?? usageFromKeyUsage(certificate),
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    notBefore: certificate.notBefore.toISOString(),
    notAfter: certificate.notAfter.toISOString(),
    keyAlgorithm: isEc ? 'EC' : 'RSA',
    keyParameters: isEc ? (algorithm.namedCurve ?? 'unknown curve') : String(algorithm.modulusLength ?? 'unknown size'),
    valid: isValidAt({ notBefore: certificate.notBefore.toISOString(), notAfter: certificate.notAfter.toISOString() }, now),
    isCa: certificate.getExtension(x509.BasicConstraintsExtension)?.ca === true,
  };
}

/** A certificate from outside (a web page, a token) that is not DER X.509 is bad input, never a server error. */
function parseCertificate(der: Uint8Array): x509.X509Certificate {
  try {
    return new x509.X509Certificate(new Uint8Array(der));
  } catch (cause) {
    throw new InvalidInputError(`The certificate is not a DER-encoded X.509 certificate (${(cause as Error).message}).`, { certificate: ['not an X.509 certificate'] });
  }
}

function usageFromKeyUsage(certificate: x509.X509Certificate): TokenCertificate['usage'] {
  const usages = certificate.getExtension(x509.KeyUsagesExtension)?.usages ?? 0;
  if ((usages & x509.KeyUsageFlags.nonRepudiation) !== 0) return 'signing';
  return (usages & x509.KeyUsageFlags.digitalSignature) !== 0 ? 'authentication' : 'other';
}
