import { describe, expect, it } from 'vitest';
import { X509Certificate } from 'node:crypto';
import { x509 } from '../../../src/station/pki/x509.js';
import { createTestCa, createTestSigner } from './test-pki.js';

describe('test PKI', () => {
  it('issues non-repudiation certificates that chain to the root', async () => {
    const ca = await createTestCa();
    const signer = await createTestSigner(ca, 'CN=Jaak-Kristjan Jõeorg,2.5.4.5=PNOEE-38001085718,C=EE');
    const leaf = new X509Certificate(signer.der);
    expect(leaf.verify(new X509Certificate(ca.der).publicKey)).toBe(true);
    expect(leaf.subject).toContain('serialNumber=PNOEE-38001085718');
    const usage = signer.certificate.getExtension(x509.KeyUsagesExtension);
    expect(usage?.usages).toBe(x509.KeyUsageFlags.nonRepudiation);
  });
});
