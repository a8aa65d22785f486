import type { TrustServiceType, TrustSource } from '../../ports/trust-source.js';

/** The anchors of several trust sources together, in their order (the first that chains a certificate names it). */
export function combinedTrustSource(sources: readonly TrustSource[]): TrustSource {
  return {
    anchorsAt: async (serviceType: TrustServiceType, at: Date) => (await Promise.all(sources.map((source) => source.anchorsAt(serviceType, at)))).flat(),
  };
}
