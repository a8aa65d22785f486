// A signer certificate for qualified-status tests: QC statements as a qualified certificate for e-signatures
// carries them, issued by one of our own test CAs.
import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import { x509 } from '../../../src/station/pki/x509.js';
import { keyParams, type TestCa } from '../pki/test-pki.js';

const DAY = 86_400_000;

/** A signer certificate with QC statements (QcCompliance, QcSSCD, QcType esign) and non-repudiation, issued 400 days ago, and its key. */
export async function qcSigner(ca: TestCa, subject: string): Promise<{ der: Uint8Array; pkcs8: Uint8Array }> {
  const keys = (await webcrypto.subtle.generateKey(keyParams('P-256'), true, ['sign', 'verify'])) as CryptoKeyPair;
  const statement = (oid: string, info?: asn1js.AsnType): asn1js.Sequence => new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: oid }), ...(info ? [info] : [])] });
  const qc = new asn1js.Sequence({ value: [statement('0.4.0.1862.1.1'), statement('0.4.0.1862.1.4'), statement('0.4.0.1862.1.6', new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: '0.4.0.1862.1.6.1' })] }))] });
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: Math.floor(Math.random() * 1e9).toString(16),
    subject,
    issuer: ca.certificate.subject,
    notBefore: new Date(Date.now() - 400 * DAY),
    notAfter: new Date(Date.now() + 400 * DAY),
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.nonRepudiation, true), new x509.Extension('1.3.6.1.5.5.7.1.3', false, qc.toBER(false))],
  });
  return { der: new Uint8Array(certificate.rawData), pkcs8: new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)) };
}
