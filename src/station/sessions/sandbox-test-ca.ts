import { randomBytes, webcrypto } from 'node:crypto';
import type { x509 as X509 } from '../pki/x509.js';
import type { Clock } from '../ports/clock.js';
import type { HashSigner } from '../signing/hash-signer.js';
import { softKeySigner } from '../signing/soft-key-signer.js';

const DAY = 86_400_000;
const CLOCK_SKEW = 3_600_000;
const RSA: webcrypto.RsaHashedKeyGenParams = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
/** The name says what it is wherever a validator shows the chain. */
export const SANDBOX_TEST_CA_NAME = 'CN=Signing Station SANDBOX TEST CA - NOT FOR PRODUCTION,OU=Sandbox simulators only,O=Signing Station';

/** Whom a simulated remote signer signs as: a natural person (Smart-ID, Mobile-ID) or an e-mail or phone (OTP). */
export interface SandboxSignerName {
  firstname: string;
  lastname: string;
  idcode: string;
  country: string;
}

export interface SandboxSigner {
  certificate: Uint8Array;
  sign: HashSigner;
}

/**
 * The certificate authority of the sandbox simulators (Smart-ID, Mobile-ID, OTP signing): clearly marked as a test
 * CA, made fresh for each station run and never kept, so nothing it signs can pass for a real signature unless a
 * validator is told to trust it (its certificate is served at /api/sandbox/test-ca.pem). Each simulated signer gets
 * its own key and a one-day certificate, so the signed PAdES and ASiC-E are real and validate against this root.
 */
export class SandboxTestCa {
  readonly #clock: Clock;
  #root: Promise<{ certificate: X509.X509Certificate; key: webcrypto.CryptoKey }> | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async rootPem(): Promise<string> {
    return (await this.#rootPair()).certificate.toString('pem');
  }

  async issue(name: SandboxSignerName): Promise<SandboxSigner> {
    const root = await this.#rootPair();
    const { x509 } = await import('../pki/x509.js');
    const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
    const now = this.#clock.now().getTime();
    const certificate = await x509.X509CertificateGenerator.create({
      serialNumber: randomBytes(16).toString('hex').replace(/^[89a-f]/, '1'),
      subject: `CN=${escape(`${name.lastname},${name.firstname},${name.idcode}`)},SN=${escape(name.lastname)},G=${escape(name.firstname)},2.5.4.5=PNO${name.country}-${escape(name.idcode)},C=${name.country}`,
      issuer: root.certificate.subject,
      notBefore: new Date(now - CLOCK_SKEW),
      notAfter: new Date(now + DAY),
      publicKey: keys.publicKey,
      signingKey: root.key,
      signingAlgorithm: RSA,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.nonRepudiation, true),
        await x509.AuthorityKeyIdentifierExtension.create(root.certificate.publicKey),
      ],
    });
    const pkcs8 = new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
    return { certificate: new Uint8Array(certificate.rawData), sign: softKeySigner(pkcs8) };
  }

  #rootPair() {
    this.#root ??= (async () => {
      // @peculiar/x509 loads with the first sandbox signature, not with every station start.
      const { x509 } = await import('../pki/x509.js');
      const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
      const now = this.#clock.now().getTime();
      const certificate = await x509.X509CertificateGenerator.createSelfSigned({
        serialNumber: randomBytes(16).toString('hex').replace(/^[89a-f]/, '1'),
        name: SANDBOX_TEST_CA_NAME,
        notBefore: new Date(now - CLOCK_SKEW),
        notAfter: new Date(now + 365 * DAY),
        keys,
        signingAlgorithm: RSA,
        extensions: [
          new x509.BasicConstraintsExtension(true, 0, true),
          new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
          await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
        ],
      });
      return { certificate, key: keys.privateKey };
    })();
    return this.#root;
  }
}

/** RFC 4514 escaping for the few characters a sandbox name may hold. */
const escape = (value: string): string => value.replace(/([,+"\\<>;=])/g, '\\$1');
