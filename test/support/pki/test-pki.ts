// A throwaway PKI for tests: a root CA and end-entity certificates for any public key (soft keys, SoftHSM keys,
// emulated cards), on the station's @peculiar/x509 entry point.
import { webcrypto } from 'node:crypto';
import { x509 } from '../../../src/station/pki/x509.js';

export type KeyAlgorithm = 'RSA-2048' | 'RSA-3072' | 'P-256' | 'P-384';

export function keyParams(algorithm: KeyAlgorithm): RsaHashedKeyGenParams | EcKeyGenParams {
  switch (algorithm) {
    case 'RSA-2048':
    case 'RSA-3072':
      return {
        name: 'RSASSA-PKCS1-v1_5',
        hash: 'SHA-256',
        publicExponent: new Uint8Array([1, 0, 1]),
        modulusLength: algorithm === 'RSA-2048' ? 2048 : 3072,
      };
    case 'P-256':
    case 'P-384':
      return { name: 'ECDSA', namedCurve: algorithm };
  }
}

function signingAlgorithm(key: CryptoKey): RsaHashedImportParams | EcdsaParams {
  return key.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
}

export interface TestCa {
  certificate: x509.X509Certificate;
  keys: CryptoKeyPair;
  pem: string;
  der: Uint8Array;
}

export interface IssuedCertificate {
  certificate: x509.X509Certificate;
  pem: string;
  der: Uint8Array;
}

export async function createTestCa(
  name = 'CN=Signing Station Test Root,O=Signing Station Tests,C=EE',
  algorithm: KeyAlgorithm = 'P-256',
  validity: { notBefore: Date; notAfter: Date } = { notBefore: new Date(Date.now() - 86_400_000), notAfter: new Date(Date.now() + 10 * 365 * 86_400_000) },
): Promise<TestCa> {
  const keys = (await webcrypto.subtle.generateKey(keyParams(algorithm), true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name,
    ...validity,
    keys,
    signingAlgorithm: signingAlgorithm(keys.privateKey),
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, keys, pem: certificate.toString('pem'), der: new Uint8Array(certificate.rawData) };
}

let serial = 0x1000;

/** A CA issued by `parent` (an intermediate), to test that signatures embed the whole chain. */
export async function createTestIntermediateCa(parent: TestCa, name: string, algorithm: KeyAlgorithm = 'P-256'): Promise<TestCa> {
  const keys = (await webcrypto.subtle.generateKey(keyParams(algorithm), true, ['sign', 'verify'])) as CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16),
    subject: name,
    issuer: parent.certificate.subject,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 5 * 365 * 86_400_000),
    publicKey: keys.publicKey,
    signingKey: parent.keys.privateKey,
    signingAlgorithm: signingAlgorithm(parent.keys.privateKey),
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.AuthorityKeyIdentifierExtension.create(parent.keys.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificate, keys, pem: certificate.toString('pem'), der: new Uint8Array(certificate.rawData) };
}

export interface IssueOptions {
  subject: string;
  publicKey: CryptoKey;
  usage: 'signing' | 'authentication' | 'tsa' | 'ocsp' | 'other';
  notBefore?: Date;
  notAfter?: Date;
  serialNumber?: string;
  /** Where relying parties ask about revocation: an OCSP responder (authorityInfoAccess) and a CRL address. */
  ocspUrl?: string;
  crlUrl?: string;
}

export async function issueCertificate(ca: TestCa, options: IssueOptions): Promise<IssuedCertificate> {
  const keyUsage =
    options.usage === 'signing'
      ? x509.KeyUsageFlags.nonRepudiation
      : options.usage === 'authentication'
        ? x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement
        : x509.KeyUsageFlags.digitalSignature;
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(keyUsage, true),
    await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
    await x509.SubjectKeyIdentifierExtension.create(options.publicKey),
  ];
  if (options.ocspUrl) extensions.push(new x509.AuthorityInfoAccessExtension({ ocsp: [new x509.GeneralName('url', options.ocspUrl)] }));
  if (options.crlUrl) extensions.push(new x509.CRLDistributionPointsExtension([options.crlUrl]));
  if (options.usage === 'ocsp') extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.ocspSigning]));
  if (options.usage === 'tsa') extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.timeStamping], true));
  if (options.usage === 'authentication') extensions.push(new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]));
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: options.serialNumber ?? (serial++).toString(16),
    subject: options.subject,
    issuer: ca.certificate.subject,
    notBefore: options.notBefore ?? new Date(Date.now() - 3_600_000),
    notAfter: options.notAfter ?? new Date(Date.now() + 2 * 365 * 86_400_000),
    publicKey: options.publicKey,
    signingKey: ca.keys.privateKey,
    signingAlgorithm: signingAlgorithm(ca.keys.privateKey),
    extensions,
  });
  return { certificate, pem: certificate.toString('pem'), der: new Uint8Array(certificate.rawData) };
}

/** A soft key pair with a certificate from `ca`, exportable to PEM/PKCS#8 for openssl and pkcs11-tool. */
export async function createTestSigner(
  ca: TestCa,
  subject: string,
  algorithm: KeyAlgorithm = 'RSA-2048',
  usage: IssueOptions['usage'] = 'signing',
  revocation: Pick<IssueOptions, 'ocspUrl' | 'crlUrl'> = {},
) {
  const keys = (await webcrypto.subtle.generateKey(keyParams(algorithm), true, ['sign', 'verify'])) as CryptoKeyPair;
  const issued = await issueCertificate(ca, { subject, publicKey: keys.publicKey, usage, ...revocation });
  const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { ...issued, keys, pkcs8 };
}
