import type { SignatureBaseline } from '../../core/schemas/signature-baseline.js';
import { StationError } from '../../core/errors/station-error.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { namesRevocationSource } from '../pki/revocation-data.js';
import { x509 } from '../pki/x509.js';

/**
 * The long-term levels embed the signer's revocation status: a certificate that names no OCSP or CRL service
 * cannot have one, which is known from the certificate alone. Said before anything is stored or any prompt shown,
 * rather than after the person has consented and typed their PIN.
 */
export function refuseUnreachableLevel(baseline: SignatureBaseline | undefined, certificate: Uint8Array): void {
  if (baseline !== 'B-LT' && baseline !== 'B-LTA') return;
  let subject: string;
  try {
    subject = new x509.X509Certificate(Uint8Array.from(certificate)).subject;
  } catch {
    throw new InvalidInputError('signingCertificate is not a DER certificate.', { signingCertificate: ['is not a DER certificate'] });
  }
  if (namesRevocationSource(certificate)) return;
  throw new StationError('ERR_SIGNING_REVOCATION_UNAVAILABLE', `The certificate of ${subject} names no OCSP or CRL service, so the level ${baseline} cannot be made; sign at B-T.`, {
    status: 422,
    details: { subject },
  });
}
