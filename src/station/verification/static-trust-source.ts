import type { TrustAnchor, TrustServiceType, TrustSource } from '../ports/trust-source.js';

/**
 * A trust source over a fixed set of anchors: those of the service type asked for, granted at the time asked
 * (granted since before it, or withdrawn only after it).
 */
export function staticTrustSource(anchors: readonly TrustAnchor[]): TrustSource {
  return {
    anchorsAt: (serviceType: TrustServiceType, at: Date) =>
      Promise.resolve(
        anchors.filter((anchor) => {
          if (!anchor.serviceTypes.includes(serviceType)) return false;
          const since = anchor.statusSince?.getTime() ?? Number.NEGATIVE_INFINITY;
          return anchor.status === 'granted' ? since <= at.getTime() : at.getTime() < since;
        }),
      ),
  };
}
