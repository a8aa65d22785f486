// A Token held in memory (a soft key from test-pki): stands in for the ID card / USB token in login tests. It keeps
// the real tokens' contract: asks the PinSource, refuses a wrong PIN, signs DigestInfo||hash with PKCS#1 v1.5.
import { constants, createPrivateKey, privateEncrypt, type KeyObject } from 'node:crypto';
import type { PinStatus, TokenCertificate, TokenDescription } from '../../../src/core/schemas/token-description.js';
import type { SignRequest, Token } from '../../../src/station/tokens/token.js';
import { PinIncorrectError, UserCancelledError } from '../../../src/station/tokens/token-errors.js';
import { createTestSigner, type TestCa } from '../pki/test-pki.js';

const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

export interface SoftTokenOptions {
  subject: string;
  pin?: string;
  /** Signs with a different key than the certificate's: a token that cannot prove possession. */
  wrongKey?: boolean;
}

export class SoftToken implements Token {
  readonly id: string;
  readonly kind = 'pkcs11' as const;
  readonly label: string;
  readonly signed: SignRequest[] = [];
  readonly #certificate: TokenCertificate;
  readonly #key: KeyObject;
  readonly #pin: string;

  private constructor(id: string, certificate: TokenCertificate, key: KeyObject, pin: string) {
    this.id = id;
    this.label = `Soft token ${id}`;
    this.#certificate = certificate;
    this.#key = key;
    this.#pin = pin;
  }

  static async create(ca: TestCa, id: string, options: SoftTokenOptions): Promise<SoftToken> {
    const signer = await createTestSigner(ca, options.subject, 'RSA-2048', 'authentication');
    const keyBytes = options.wrongKey ? (await createTestSigner(ca, 'CN=Other', 'RSA-2048', 'authentication')).pkcs8 : signer.pkcs8;
    const certificate: TokenCertificate = {
      id: '01',
      certificate: Buffer.from(signer.der).toString('base64'),
      usage: 'authentication',
      subject: signer.certificate.subject,
      issuer: signer.certificate.issuer,
      serialNumber: signer.certificate.serialNumber,
      notBefore: signer.certificate.notBefore.toISOString(),
      notAfter: signer.certificate.notAfter.toISOString(),
      keyAlgorithm: 'RSA',
      keyParameters: '2048',
      valid: true,
    };
    return new SoftToken(id, certificate, createPrivateKey({ key: Buffer.from(keyBytes), format: 'der', type: 'pkcs8' }), options.pin ?? '1234');
  }

  async describe(): Promise<TokenDescription> {
    return { id: this.id, kind: this.kind, label: this.label, driver: 'soft', pin: await this.pinStatus(), certificates: [this.#certificate] };
  }

  async listCertificates(): Promise<TokenCertificate[]> {
    return [this.#certificate];
  }

  async pinStatus(): Promise<PinStatus> {
    return { countLow: false, finalTry: false, locked: false, pinpad: false };
  }

  async sign(request: SignRequest): Promise<Uint8Array> {
    if (request.certificateId !== this.#certificate.id || request.hashAlgorithm !== 'SHA-256' || request.scheme !== 'RSASSA-PKCS1-v1_5') {
      throw new TypeError('unsupported sign request');
    }
    const pin = await request.pin({ finalTry: false, previousAttemptFailed: false, pinLabel: 'PIN1' });
    if (!pin) throw new UserCancelledError();
    const correct = Buffer.from(pin).toString('utf8') === this.#pin;
    pin.fill(0);
    if (!correct) throw new PinIncorrectError(2);
    this.signed.push(request);
    return new Uint8Array(privateEncrypt({ key: this.#key, padding: constants.RSA_PKCS1_PADDING }, Buffer.concat([SHA256_DIGEST_INFO, request.hash])));
  }

  async release(): Promise<void> {}
}

/** A TokenSource over fixed soft tokens, for createStation's `tokenSources`. */
export function softTokenSource(tokens: SoftToken[]) {
  return {
    name: 'soft',
    start: async () => {},
    stop: async () => {},
    tokens: () => tokens,
    onChange: () => () => {},
  };
}
