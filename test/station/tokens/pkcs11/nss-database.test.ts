import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import type { Pkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/pkcs11-token-source.js';
import { nssSoftokenPaths } from '../../../../src/station/tokens/pkcs11/known-pkcs11-modules.js';
import type { Token } from '../../../../src/station/tokens/token.js';
import { PinIncorrectError } from '../../../../src/station/tokens/token-errors.js';
import { createTestCa } from '../../../support/pki/test-pki.js';
import { createNssDatabase, type NssDatabase } from '../../../support/pkcs11/pkcs11-nss-database.js';
import { scriptedPins } from '../../../support/pkcs11/pkcs11-pin-source.js';
import { verifyWithCertificate } from '../../../support/pkcs11/pkcs11-verify.js';

let nss: NssDatabase;
let source: Pkcs11TokenSource;
let token: Token;

beforeAll(async () => {
  const ca = await createTestCa();
  nss = await createNssDatabase(ca, 'db-password', [
    { name: 'NSS RSA Signer', algorithm: 'RSA-2048' },
    { name: 'NSS EC Signer', algorithm: 'P-256' },
  ]);
  source = createPkcs11TokenSource({ includeKnown: false, nssDatabases: [nss.dir] });
  await source.start();
  expect(source.problems()).toEqual([]);
  expect(source.tokens()).toHaveLength(1);
  token = source.tokens()[0]!;
});

afterEach(async () => token?.release());

afterAll(async () => {
  await source?.stop();
  await nss?.dispose();
});

describe('NSS certificate database through libsoftokn3', () => {
  it('is a certificate store with the imported certificates; the CA from the PKCS#12 file is not offered', async () => {
    const description = await token.describe();
    expect(description).toMatchObject({ kind: 'store', label: 'NSS Certificate DB', driver: nssSoftokenPaths()[0] });
    expect(description.certificates.map((c) => c.subject).sort()).toEqual([
      'CN=NSS EC Signer, O=Signing Station Tests, C=EE',
      'CN=NSS RSA Signer, O=Signing Station Tests, C=EE',
    ]);
    expect(description.certificates.every((c) => c.usage === 'signing' && c.valid)).toBe(true);
  });

  it.each([
    [0, 'RSASSA-PKCS1-v1_5'],
    [0, 'RSA-PSS'],
    [1, 'ECDSA'],
  ] as const)('signs with key %i (%s) after the database password, verified by node:crypto', async (index, scheme) => {
    const signer = nss.signers[index]!;
    const certificate = (await token.listCertificates()).find((c) => c.subject === signer.certificate.subject)!;
    const message = new TextEncoder().encode('a document in the browser store');
    const pins = scriptedPins(nss.password);
    const signature = await token.sign({
      certificateId: certificate.id,
      hash: createHash('sha256').update(message).digest(),
      hashAlgorithm: 'SHA-256',
      scheme,
      pin: pins.source,
      purpose: 'sign',
    });
    expect(verifyWithCertificate(signer.der, scheme, 'SHA-256', message, signature)).toBe(true);
    expect(pins.requests[0]).toMatchObject({ pinLabel: 'database password' });
  });

  it('a wrong database password is a retriable PIN error', async () => {
    const certificate = (await token.listCertificates())[0]!;
    await expect(
      token.sign({
        certificateId: certificate.id,
        hash: new Uint8Array(32),
        hashAlgorithm: 'SHA-256',
        scheme: certificate.keyAlgorithm === 'EC' ? 'ECDSA' : 'RSASSA-PKCS1-v1_5',
        pin: scriptedPins('not the password').source,
        purpose: 'sign',
      }),
    ).rejects.toBeInstanceOf(PinIncorrectError);
  });
});
