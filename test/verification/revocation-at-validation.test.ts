// Revocation at validation time against real services: openssl's OCSP responders (signed by the CA, by a responder
// it delegated, by one it did not, by a stranger) and a CRL served over HTTP; signatures timestamped by openssl's TSA.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x509 } from '../../src/station/pki/x509.js';
import { SignatureEngine } from '../../src/station/signing/signature-engine.js';
import { softKeySigner } from '../../src/station/signing/soft-key-signer.js';
import { checkRevocation } from '../../src/station/verification/check-revocation.js';
import { verifyDocument } from '../../src/station/verification/verify-document.js';
import { createTestCa, createTestSigner, type TestCa } from '../support/pki/test-pki.js';
import { startRevocationServices, type RevocationServices } from '../support/signing/revocation-services.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createOpensslTsa, type OpensslTsa } from '../support/tsa/openssl-tsa.js';
import { trustOf } from '../support/verification/trust-of.js';

type Signer = Awaited<ReturnType<typeof createTestSigner>>;
let dir: string;
let ca: TestCa;
let tsa: OpensslTsa;
let services: RevocationServices;
let rogue: RevocationServices;
let delegated: RevocationServices;
let undelegated: RevocationServices;
const signed: Record<string, string> = {};
let ocspSigner: Signer;

const subject = (name: string): string => `CN=${name},O=Signing Station Tests,C=EE`;

async function signB_T(name: string, signer: Signer): Promise<string> {
  const input = await writeMinimalPdf(join(dir, `${name}.pdf`));
  const output = join(dir, `${name}-signed.pdf`);
  await SignatureEngine.sign('pades', input, { certificate: signer.der, issuers: [ca.der], sign: softKeySigner(signer.pkcs8) }, { outputPath: output, timestampClient: tsa, baseline: 'B-T' });
  return output;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'revocation-at-validation-'));
  ca = await createTestCa(subject('Revocation Test Root'));
  // A stranger's key answering about the CA's certificates; a responder the CA delegated (id-kp-OCSPSigning); one it
  // issued without that purpose.
  const stranger = await createTestCa(subject('Rogue Responder'));
  const [delegate, plain] = await Promise.all([createTestSigner(ca, subject('Delegated Responder'), 'P-256', 'ocsp'), createTestSigner(ca, subject('Not A Responder'), 'P-256', 'other')]);
  const folder = (name: string) => mkdtemp(join(dir, `${name}-`));
  [services, rogue, delegated, undelegated, tsa] = await Promise.all([
    startRevocationServices(dir, ca),
    startRevocationServices(await folder('rogue'), ca, { pem: stranger.pem, privateKey: stranger.keys.privateKey }),
    startRevocationServices(await folder('delegated'), ca, { pem: delegate.pem, privateKey: delegate.keys.privateKey }),
    startRevocationServices(await folder('undelegated'), ca, { pem: plain.pem, privateKey: plain.keys.privateKey }),
    createOpensslTsa(dir),
  ]);
  const both = { ocspUrl: services.ocspUrl, crlUrl: services.crlUrl };
  const signers = {
    ocsp: await createTestSigner(ca, subject('OCSP Good'), 'P-256', 'signing', both),
    crl: await createTestSigner(ca, subject('CRL Good'), 'P-256', 'signing', { crlUrl: services.crlUrl }),
    revokedBefore: await createTestSigner(ca, subject('Revoked Before'), 'P-256', 'signing', both),
    revokedAfter: await createTestSigner(ca, subject('Revoked After'), 'P-256', 'signing', { crlUrl: services.crlUrl }),
    revokedAfterOcsp: await createTestSigner(ca, subject('Revoked After OCSP'), 'P-256', 'signing', both),
    rogue: await createTestSigner(ca, subject('Rogue Answered'), 'P-256', 'signing', { ocspUrl: rogue.ocspUrl }),
    delegated: await createTestSigner(ca, subject('Delegate Answered'), 'P-256', 'signing', { ocspUrl: delegated.ocspUrl }),
    undelegated: await createTestSigner(ca, subject('Undelegated Answered'), 'P-256', 'signing', { ocspUrl: undelegated.ocspUrl }),
    nowhere: await createTestSigner(ca, subject('Names Nowhere'), 'P-256', 'signing'),
  };
  ocspSigner = signers.ocsp;
  for (const [name, signer] of Object.entries(signers)) signed[name] = await signB_T(name, signer);
  // Every signature is timestamped by now: one revocation an hour before it, two a second after the last of them.
  const after = new Date(Date.now() + 1000);
  const revokedAt = new Map([
    [signers.revokedBefore, new Date(Date.now() - 3_600_000)],
    [signers.revokedAfter, after],
    [signers.revokedAfterOcsp, after],
  ]);
  await services.publish([signers.ocsp, signers.crl, signers.nowhere, signers.rogue], [signers.revokedBefore, signers.revokedAfter, signers.revokedAfterOcsp], revokedAt);
  // Each of these responders knows the certificate and answers "good", signed with its own key.
  await Promise.all([rogue.publish([signers.rogue], []), delegated.publish([signers.delegated], []), undelegated.publish([signers.undelegated], [])]);
});

afterAll(async () => {
  await Promise.all([services?.close(), rogue?.close(), delegated?.close(), undelegated?.close()]);
  await rm(dir, { recursive: true, force: true });
});

const trust = () => trustOf(new x509.X509Certificate(Uint8Array.from(ca.der)), new x509.X509Certificate(readFileSync(tsa.rootPath, 'utf8')));
const verified = async (name: string, offline = false) => (await verifyDocument(signed[name]!, { trust: trust(), offline })).signatures[0]!;

describe('revocation at validation', () => {
  it('fetches the status a B-T signature does not embed: OCSP first, else the CRL; the report names the source', async () => {
    expect(await verified('ocsp')).toMatchObject({ revocation: 'good', revocationSource: `OCSP ${services.ocspUrl}`, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
    expect(await verified('crl')).toMatchObject({ revocation: 'good', revocationSource: `CRL ${services.crlUrl}`, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
  });

  it('offline with nothing embedded is INDETERMINATE/TRY_LATER and says so; a certificate that names nowhere to ask is not held back', async () => {
    const offline = await verified('ocsp', true);
    expect(offline).toMatchObject({ revocation: 'unavailable', revocationSource: null, verdict: expect.objectContaining({ indication: 'INDETERMINATE', subIndication: 'TRY_LATER' }) });
    expect(offline.verdict.reason).toMatch(/offline/);
    expect(offline.verdict.advice).toMatch(/go online to check revocation/);
    expect(await verified('nowhere', true)).toMatchObject({ revocation: 'not embedded', verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
  });

  it('revoked before the signing time its timestamp proves: TOTAL-FAILED/REVOKED, with the time and the source', async () => {
    const report = await verified('revokedBefore');
    expect(report).toMatchObject({ revocation: 'revoked', revocationSource: `OCSP ${services.ocspUrl}`, verdict: expect.objectContaining({ indication: 'TOTAL-FAILED', subIndication: 'REVOKED', judgedAtFrom: 'timestamp' }) });
    expect(report.verdict.reason).toMatch(/revoked since \d{4}-/);
  });

  it('revoked after the signing time its timestamp proves: the signature still holds, and the report says when it was revoked', async () => {
    for (const [name, source] of [['revokedAfter', `CRL ${services.crlUrl}`], ['revokedAfterOcsp', `OCSP ${services.ocspUrl}`]] as const) {
      const report = await verified(name);
      expect(report, JSON.stringify(report.problems)).toMatchObject({ revocation: 'revoked after signing', revocationSource: source, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
      expect(report.problems.join(' ')).toMatch(/revoked at .*after the signature was made/);
    }
  });

  it('an answer signed by a responder the issuer delegated (id-kp-OCSPSigning) counts', async () => {
    expect(await verified('delegated')).toMatchObject({ revocation: 'good', revocationSource: `OCSP ${delegated.ocspUrl}`, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
  });

  it('an answer signed by a stranger, or by a certificate of the issuer not delegated to answer, proves nothing: INDETERMINATE/TRY_LATER naming why', async () => {
    for (const [name, url] of [['rogue', rogue.ocspUrl], ['undelegated', undelegated.ocspUrl]] as const) {
      const report = await verified(name);
      expect(report).toMatchObject({ revocation: 'unavailable', verdict: expect.objectContaining({ indication: 'INDETERMINATE', subIndication: 'TRY_LATER' }) });
      expect(report.verdict.reason).toContain(`OCSP ${url} answered nothing signed by the issuer`);
    }
  });

  it('an embedded answer issued before the signing time does not count: it cannot say the certificate was good then', async () => {
    await writeFile(join(dir, 'ocsp-signer.pem'), ocspSigner.pem);
    await writeFile(join(dir, 'ocsp-ca.pem'), ca.pem);
    const respout = join(dir, 'answer.ocsp');
    await promisify(execFile)('openssl', ['ocsp', '-issuer', join(dir, 'ocsp-ca.pem'), '-cert', join(dir, 'ocsp-signer.pem'), '-url', services.ocspUrl, '-respout', respout, '-noverify']);
    const answer = new Uint8Array(await readFile(respout));
    const question = (judgedAt: Date) => ({
      certificate: new x509.X509Certificate(Uint8Array.from(ocspSigner.der)),
      issuer: new x509.X509Certificate(Uint8Array.from(ca.der)),
      embedded: { crls: [], ocsps: [answer] },
      judgedAt,
      proven: true,
      now: new Date(),
      required: true,
      fetch: false,
    });
    expect(await checkRevocation(question(new Date(Date.now() - 3_600_000)))).toMatchObject({ status: 'good', source: 'embedded OCSP response' });
    expect(await checkRevocation(question(new Date(Date.now() + 3_600_000)))).toMatchObject({ status: 'unavailable', finding: expect.objectContaining({ subIndication: 'TRY_LATER' }) });
  });
});
