import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignatureVerification } from '../../../src/core/schemas/verification-report.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { createTestCa, createTestSigner, type TestCa } from '../../support/pki/test-pki.js';
import { buildCmsSignature, type CmsSignatureRecipe } from '../../support/verification/build-cms-signature.js';
import { trustOf } from '../../support/verification/trust-of.js';

const SHA256 = { nodeName: 'sha256', oid: '2.16.840.1.101.3.4.2.1' };
const SHA1 = { nodeName: 'sha1', oid: '1.3.14.3.2.26' };
const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const PLAIN_ECDSA_SHA256 = '0.4.0.127.0.7.1.1.4.1.3';
const P256_CURVE = '1.2.840.10045.3.1.7';
const SHA1_RSA = '1.2.840.113549.1.1.5';

let dir: string;
let ca: TestCa;
let ec: Awaited<ReturnType<typeof createTestSigner>>;
let rsa: Awaited<ReturnType<typeof createTestSigner>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cms-forms-'));
  ca = await createTestCa();
  [ec, rsa] = await Promise.all([createTestSigner(ca, 'CN=Erika Plain,O=Signing Station Tests,C=DE', 'P-256'), createTestSigner(ca, 'CN=Old Sha,O=Signing Station Tests,C=EE', 'RSA-2048')]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes the data and its detached .p7s made by `recipe`, and verifies it with the test root trusted. */
async function verifyMade(name: string, recipe: Omit<CmsSignatureRecipe, 'content'>, now?: Date): Promise<SignatureVerification> {
  const content = Buffer.from(`the ${name} document`);
  await writeFile(join(dir, name), content);
  await writeFile(join(dir, `${name}.p7s`), buildCmsSignature({ ...recipe, content }));
  const report = await verifyDocument(join(dir, `${name}.p7s`), { trust: trustOf(ca.certificate), ...(now ? { clock: { now: () => now } } : {}) });
  return report.signatures[0]!;
}

describe('CMS signature forms other signers write', () => {
  it('passes a DER-encoded ECDSA signature made the usual way (the recipe itself is sound)', async () => {
    const signature = await verifyMade('usual.txt', { certificate: ec.der, pkcs8: ec.pkcs8, digest: SHA256, signatureOid: ECDSA_SHA256, dsaEncoding: 'der' });
    expect(signature.verdict).toMatchObject({ indication: 'TOTAL-PASSED' });
  });

  it('is INDETERMINATE/OUT_OF_BOUNDS_NO_POE, judged at the validation time, when its certificate has expired by then and no timestamp proves earlier', async () => {
    const later = new Date(Date.now() + 20 * 365 * 86_400_000);
    const signature = await verifyMade('expired.txt', { certificate: ec.der, pkcs8: ec.pkcs8, digest: SHA256, signatureOid: ECDSA_SHA256, dsaEncoding: 'der' }, later);
    expect(signature).toMatchObject({ intact: true, verdict: expect.objectContaining({ indication: 'INDETERMINATE', subIndication: 'OUT_OF_BOUNDS_NO_POE', judgedAt: later.toISOString(), judgedAtFrom: 'validation time' }) });
  });

  it('passes plain ECDSA (BSI TR-03111 ecdsa-plain-SHA256, r||s values)', async () => {
    const signature = await verifyMade('plain.txt', { certificate: ec.der, pkcs8: ec.pkcs8, digest: SHA256, signatureOid: PLAIN_ECDSA_SHA256, dsaEncoding: 'ieee-p1363' });
    expect(signature).toMatchObject({ intact: true, verdict: expect.objectContaining({ indication: 'TOTAL-PASSED' }) });
  });

  it('fails an EC curve OID given as the signature algorithm, even over a value that verifies', async () => {
    const signature = await verifyMade('curve.txt', { certificate: ec.der, pkcs8: ec.pkcs8, digest: SHA256, signatureOid: P256_CURVE, dsaEncoding: 'der' });
    expect(signature.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'SIG_CRYPTO_FAILURE', reason: `${P256_CURVE} is not a signature algorithm` });
  });

  it('fails signed attributes not in DER order, even when the value was computed over them as written', async () => {
    const signature = await verifyMade('unsorted.txt', { certificate: ec.der, pkcs8: ec.pkcs8, digest: SHA256, signatureOid: ECDSA_SHA256, dsaEncoding: 'der', attributesOutOfOrder: true });
    expect(signature.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'SIG_CRYPTO_FAILURE', reason: expect.stringContaining('not in DER order') });
  });

  it('judges SHA-1 by its strength at the signing time: intact, and INDETERMINATE when nothing proves it was made before 2012-08-01', async () => {
    const signature = await verifyMade('sha1.txt', { certificate: rsa.der, pkcs8: rsa.pkcs8, digest: SHA1, signatureOid: SHA1_RSA });
    expect(signature).toMatchObject({ intact: true, chain: expect.objectContaining({ trusted: true }) });
    expect(signature.verdict).toMatchObject({ indication: 'INDETERMINATE', subIndication: 'CRYPTO_CONSTRAINTS_FAILURE_NO_POE', reason: expect.stringContaining('SHA-1 was strong enough for signatures until 2012-08-01') });
  });
});
