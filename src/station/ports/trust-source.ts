import type { x509 } from '../pki/x509.js';

/** What a trusted service vouches for: certificates for signatures (CA), or timestamps (TSA). */
export type TrustServiceType = 'CA' | 'TSA';

/**
 * One trust anchor as a trusted list describes a service: its certificate, what it is trusted for, and its status
 * from a given time (a withdrawn service counts only before its withdrawal).
 */
export interface TrustAnchor {
  certificate: x509.X509Certificate;
  serviceTypes: readonly TrustServiceType[];
  status: 'granted' | 'withdrawn';
  /** When the status began; null for "always" (a certificate the user configured). */
  statusSince: Date | null;
  /** Where the station learned it, in words a report shows ("trust file ca.pem", "this station's TSA"). */
  source: string;
}

/**
 * Where verification gets its trust anchors: the anchors trusted for a service type at a given time. Fed today by
 * the configured CA files, NSS databases and the station's own TSA; trusted lists plug in behind the same port.
 */
export interface TrustSource {
  anchorsAt(serviceType: TrustServiceType, at: Date): Promise<readonly TrustAnchor[]>;
}
