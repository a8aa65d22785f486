import type { SignatureVerification } from '../../core/schemas/verification-report.js';
import { ocspStatusOf } from '../pki/ocsp-status.js';
import { x509 } from '../pki/x509.js';

/** Revocation data a signature embeds: DER CRLs and whole OCSP responses. */
export interface EmbeddedRevocationData {
  crls: readonly Uint8Array[];
  ocsps: readonly Uint8Array[];
}

/**
 * The signer certificate's status from the CRLs and OCSP responses the signature embeds (only those its issuer, or a
 * responder the issuer delegated, signed count): "not embedded" when none speaks of it, since the station verifies
 * offline and fetches nothing. Revoked by any of them is revoked.
 */
export async function checkRevocation(certificate: x509.X509Certificate, issuer: x509.X509Certificate | undefined, embedded: EmbeddedRevocationData): Promise<SignatureVerification['revocation']> {
  if (!issuer) return 'not embedded';
  let covered = false;
  for (const der of embedded.crls) {
    const crl = new x509.X509Crl(Uint8Array.from(der));
    if (crl.issuer !== certificate.issuer || !(await crl.verify({ publicKey: issuer.publicKey }).catch(() => false))) continue;
    if (crl.findRevoked(certificate)) return 'revoked';
    covered = true;
  }
  for (const der of embedded.ocsps) {
    const status = await ocspStatusOf(der, new Uint8Array(certificate.rawData), new Uint8Array(issuer.rawData));
    if (status === 'revoked') return 'revoked';
    if (status === 'good') covered = true;
  }
  return covered ? 'good' : 'not embedded';
}
