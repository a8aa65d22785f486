import type { x509 } from '../../../src/station/pki/x509.js';
import type { TrustSource } from '../../../src/station/ports/trust-source.js';
import { staticTrustSource } from '../../../src/station/verification/static-trust-source.js';

/** A trust source holding these certificates, trusted for signatures and timestamps alike, as `--trust` does. */
export function trustOf(...certificates: x509.X509Certificate[]): TrustSource {
  return staticTrustSource(certificates.map((certificate) => ({ certificate, serviceTypes: ['CA', 'TSA'], status: 'granted', statusSince: null, source: 'test' })));
}
