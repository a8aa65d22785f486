import { describe, expect, it } from 'vitest';
import type { TrustAnchor } from '../../../src/station/ports/trust-source.js';
import { staticTrustSource } from '../../../src/station/verification/static-trust-source.js';
import { createTestCa } from '../../support/pki/test-pki.js';

describe('trust anchors by service type and status at a time', () => {
  it('gives a TSA-only anchor for timestamps only, and a withdrawn one only for times before its withdrawal', async () => {
    const [ca, tsa, withdrawnCa] = await Promise.all([createTestCa('CN=CA,O=Signing Station Tests,C=EE'), createTestCa('CN=TSA Root,O=Signing Station Tests,C=EE'), createTestCa('CN=Withdrawn CA,O=Signing Station Tests,C=EE')]);
    const withdrawal = new Date('2025-01-01T00:00:00Z');
    const anchors: TrustAnchor[] = [
      { certificate: ca.certificate, serviceTypes: ['CA'], status: 'granted', statusSince: null, source: 'trust file' },
      { certificate: tsa.certificate, serviceTypes: ['TSA'], status: 'granted', statusSince: null, source: "this station's TSA" },
      { certificate: withdrawnCa.certificate, serviceTypes: ['CA'], status: 'withdrawn', statusSince: withdrawal, source: 'trusted list' },
    ];
    const trust = staticTrustSource(anchors);
    const subjects = async (type: 'CA' | 'TSA', at: string) => (await trust.anchorsAt(type, new Date(at))).map((a) => a.certificate.subject);
    expect(await subjects('CA', '2024-06-01T00:00:00Z')).toEqual([ca.certificate.subject, withdrawnCa.certificate.subject]);
    expect(await subjects('CA', '2025-06-01T00:00:00Z')).toEqual([ca.certificate.subject]);
    expect(await subjects('TSA', '2025-06-01T00:00:00Z')).toEqual([tsa.certificate.subject]);
  });
});
