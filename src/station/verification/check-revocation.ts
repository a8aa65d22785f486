import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import { x509 } from '../pki/x509.js';

/**
 * The signer certificate's status from the CRLs the signature embeds (only those its issuer signed count):
 * "not embedded" when there are none, since the station verifies offline and fetches nothing.
 */
export async function checkRevocation(certificate: x509.X509Certificate, issuer: x509.X509Certificate | undefined, crls: readonly Uint8Array[]): Promise<SignatureVerification['revocation']> {
  let covered = false;
  for (const der of crls) {
    const crl = new x509.X509Crl(Uint8Array.from(der));
    if (!issuer || crl.issuer !== certificate.issuer || !(await crl.verify({ publicKey: issuer.publicKey }).catch(() => false))) continue;
    if (crl.findRevoked(certificate)) return 'revoked';
    covered = true;
  }
  return covered ? 'good' : 'not embedded';
}
