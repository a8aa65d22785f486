import { beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../../src/station/pki/x509.js';
import type { TrustAnchor } from '../../../src/station/ports/trust-source.js';
import { qualificationAtTwoTimes } from '../../../src/station/verification/trusted-lists/qualification-at-two-times.js';
import { createTestCa, type TestCa } from '../../support/pki/test-pki.js';
import { qcSigner } from '../../support/verification/qc-signer.js';

const SVC = 'http://uri.etsi.org/TrstSvc/Svctype/';
let ca: TestCa;
let signer: x509.X509Certificate;

/** The anchor a trusted list gives for the CA at one time, as the trusted-list trust source makes it. */
const listed = (typeUri: string): TrustAnchor => ({ certificate: ca.certificate, serviceTypes: ['CA'], status: 'granted', statusSince: new Date('2020-01-01'), source: `trusted list EE: ${typeUri}`, trustedList: { territory: 'EE', typeUri, qualifications: [], additional: [] } });

beforeAll(async () => {
  ca = await createTestCa('CN=Two Times CA,O=Signing Station Tests,C=EE');
  signer = new x509.X509Certificate(Uint8Array.from((await qcSigner(ca, 'CN=Kati Karu,C=EE')).der));
});

describe('qualified status at the certificate issuance and at the signing time', () => {
  const signedAt = new Date();

  it('is QES when the CA was a qualified one at both times', () => {
    expect(qualificationAtTwoTimes(signer, listed(`${SVC}CA/QC`), listed(`${SVC}CA/QC`), signedAt)).toMatchObject({ level: 'QES', atIssuance: { level: 'QES', time: signer.notBefore.toISOString() }, atSigning: { level: 'QES', time: signedAt.toISOString() } });
  });

  it('is not qualified when the CA was not a qualified one when the certificate was issued, though it is at the signing time', () => {
    expect(qualificationAtTwoTimes(signer, listed(`${SVC}CA/PKC`), listed(`${SVC}CA/QC`), signedAt)).toMatchObject({
      level: 'AdES',
      qualifiedCertificate: false,
      reason: expect.stringMatching(/^not qualified when issued/),
      atIssuance: { level: 'AdES' },
      atSigning: { level: 'QES' },
    });
  });

  it('is not qualified when the CA was withdrawn (no anchor) at the signing time', () => {
    expect(qualificationAtTwoTimes(signer, listed(`${SVC}CA/QC`), undefined, signedAt)).toMatchObject({ level: 'AdES', reason: expect.stringContaining('no longer granted'), atIssuance: { level: 'QES' }, atSigning: { level: 'AdES' } });
  });
});
