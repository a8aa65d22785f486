import type { x509 } from '../pki/x509.js';
import type { ListQualification } from '../verification/trusted-lists/trusted-list.js';

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
  /** Set when a trusted list vouches for it: what the qualified status of the certificates it issued is read from. */
  trustedList?: TrustedListService;
}

/** The trusted list's words about a service at the time asked: its type and the qualifiers it gives certificates. */
export interface TrustedListService {
  territory: string;
  /** ServiceTypeIdentifier, e.g. http://uri.etsi.org/TrstSvc/Svctype/CA/QC. */
  typeUri: string;
  qualifications: readonly ListQualification[];
  /** AdditionalServiceInformation URIs (ForeSignatures, ForeSeals, ForWebSiteAuthentication). */
  additional: readonly string[];
}

/**
 * Where verification gets its trust anchors: the anchors trusted for a service type at a given time. Fed today by
 * the configured CA files, NSS databases and the station's own TSA; trusted lists plug in behind the same port.
 */
export interface TrustSource {
  anchorsAt(serviceType: TrustServiceType, at: Date): Promise<readonly TrustAnchor[]>;
}
