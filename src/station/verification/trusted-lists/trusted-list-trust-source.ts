import type { x509 } from '../../pki/x509.js';
import type { TrustAnchor, TrustServiceType, TrustSource } from '../../ports/trust-source.js';
import { readableCertificates } from './readable-certificates.js';
import type { TrustedList, TrustedService } from './trusted-list.js';

/** A trusted list as loaded from the cache, with the words a report shows for where it came from. */
export interface LoadedList {
  list: TrustedList;
  source: string;
}

const SVC = 'http://uri.etsi.org/TrstSvc/Svctype/';
/** Service types whose certificates issue signers' certificates, and those that issue timestamps. */
const SERVICE_TYPES: Record<string, TrustServiceType> = {
  [`${SVC}CA/QC`]: 'CA',
  [`${SVC}CA/PKC`]: 'CA',
  [`${SVC}TSA/QTST`]: 'TSA',
  [`${SVC}TSA`]: 'TSA',
  [`${SVC}TSA/TSS-QC`]: 'TSA',
  [`${SVC}TSA/TSS-AdESQCandQES`]: 'TSA',
};

const STATUS = 'http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/';
/** Statuses under which a service is trusted: eIDAS "granted" and "recognised at national level", and the Directive's. */
const TRUSTED_STATUSES = new Set(['granted', 'recognisedatnationallevel', 'undersupervision', 'supervisionincessation', 'accredited', 'setbynationallaw'].map((s) => `${STATUS}${s}`));

/** Each listed service's certificates, parsed once per process (parsed lists are kept, see ManagedTrust.lists). */
const certificatesOf = new WeakMap<TrustedService, x509.X509Certificate[]>();

/**
 * Trust anchors from trusted lists, read when first asked (`lists` loads and parses the cached lists once): a
 * service's certificates are anchors for `at` when the period of its history in force then has a trusted status
 * and a type for that use (CA/QC, CA/PKC for signatures; TSA/QTST, TSA for timestamps). A service withdrawn since
 * a date thus counts only for times before it.
 */
export function trustedListTrustSource(lists: () => Promise<readonly LoadedList[]>): TrustSource {
  let loaded: Promise<readonly LoadedList[]> | undefined;
  return {
    async anchorsAt(serviceType: TrustServiceType, at: Date): Promise<readonly TrustAnchor[]> {
      loaded ??= lists();
      const anchors: TrustAnchor[] = [];
      for (const { list, source } of await loaded) {
        for (const service of list.services) {
          const period = service.periods.find((p) => p.since.getTime() <= at.getTime());
          if (!period || SERVICE_TYPES[period.typeUri] !== serviceType || !TRUSTED_STATUSES.has(period.statusUri)) continue;
          if (!certificatesOf.has(service)) certificatesOf.set(service, readableCertificates(service.certificates));
          for (const certificate of certificatesOf.get(service)!) {
            anchors.push({
              certificate,
              serviceTypes: [serviceType],
              status: 'granted',
              statusSince: period.since,
              source: `${source}: ${service.name}`,
              trustedList: { territory: list.territory, typeUri: period.typeUri, qualifications: period.qualifications, additional: period.additional },
            });
          }
        }
      }
      return anchors;
    },
  };
}
