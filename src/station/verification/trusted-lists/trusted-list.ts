/**
 * A trusted list (ETSI TS 119 612) as the station uses it: a national list's trust services with their status
 * history, or a list of lists' pointers to the national lists and the certificates that may sign each.
 */
export interface TrustedList {
  territory: string;
  /** TSLType: the EU list of lists, an EU national list, or another scheme's. */
  type: string;
  sequenceNumber: number;
  issuedAt: Date;
  /** Null when the list says it is closed (no next update). */
  nextUpdate: Date | null;
  pointers: ListPointer[];
  /** SchemeInformationURI: for a list of lists, its pivots' and the Official Journal announcements' addresses, newest first. */
  schemeUris: string[];
  services: TrustedService[];
}

/** A list of lists' pointer to a (national) list: where it is and the certificates that may sign it. */
export interface ListPointer {
  territory: string;
  location: string;
  type: string;
  mimeType: string;
  certificates: Uint8Array[];
}

/** One trust service: its certificates and its periods, newest first (the current information, then its history). */
export interface TrustedService {
  provider: string;
  name: string;
  certificates: Uint8Array[];
  periods: ServicePeriod[];
}

/** A service's type, status and qualifications from `since` until the next newer period. */
export interface ServicePeriod {
  typeUri: string;
  statusUri: string;
  since: Date;
  qualifications: ListQualification[];
  /** AdditionalServiceInformation URIs (ForeSignatures, ForeSeals, ForWebSiteAuthentication). */
  additional: string[];
}

/** Qualifiers (QCWithSSCD, QCStatement, QCForESig, ...) that apply to the certificates its criteria select. */
export interface ListQualification {
  qualifiers: string[];
  criteria: QualificationCriteria;
}

/** A CriteriaList: certificate policies (all of a set) and key usage bits, combined by `assert`. */
export interface QualificationCriteria {
  assert: 'all' | 'atLeastOne' | 'none';
  policySets: string[][];
  keyUsages: Array<Array<{ bit: string; value: boolean }>>;
  nested: QualificationCriteria[];
}
