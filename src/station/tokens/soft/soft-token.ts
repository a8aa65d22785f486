import type { PinStatus, TokenCertificate, TokenDescription } from '../../../core/schemas/token-description.js';
import type { Clock } from '../../ports/clock.js';
import type { SignRequest, Token } from '../token.js';
import { TokenError } from '../token-errors.js';
import { isValidAt, toTokenCertificate } from '../../pki/certificate-validity.js';
import { assertHashLength } from '../../pki/digest-info.js';
import type { SoftTokenStore } from './soft-token-store.js';

/** No PIN: the keys are unlocked by the OS keychain that holds the vault's master key; consent is asked per use. */
const NO_PIN: PinStatus = { countLow: false, finalTry: false, locked: false, pinpad: false };

/** The station's own certificate store (imported PKCS#12 keys) as a Token of kind 'store'. */
export class SoftToken implements Token {
  readonly id = 'station-store';
  readonly kind = 'store' as const;
  readonly label = 'Signing Station certificate store';
  readonly #store: SoftTokenStore;
  readonly #clock: Clock;

  constructor(store: SoftTokenStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  async describe(): Promise<TokenDescription> {
    return { id: this.id, kind: this.kind, label: this.label, driver: 'station store (PKCS#12 imports)', pin: NO_PIN, certificates: await this.listCertificates() };
  }

  async listCertificates(): Promise<TokenCertificate[]> {
    // certificate-summary.ts parses with @peculiar/x509: loaded when certificates are first listed, not with the station.
    const { summarizeCertificate } = await import('../../pki/certificate-summary.js');
    const now = this.#clock.now();
    return (await this.#store.list()).map((key) => toTokenCertificate(summarizeCertificate(key.certificate, key.id, now), now));
  }

  async pinStatus(): Promise<PinStatus> {
    return NO_PIN;
  }

  async sign(request: SignRequest): Promise<Uint8Array> {
    assertHashLength(request.hash, request.hashAlgorithm);
    request.signal?.throwIfAborted();
    const certificate = (await this.listCertificates()).find((c) => c.id === request.certificateId);
    if (!certificate) throw new TokenError('ERR_TOKEN_CERTIFICATE_NOT_FOUND', `The station's store has no certificate ${request.certificateId}.`, { status: 404 });
    if (!isValidAt(certificate, this.#clock.now())) {
      throw new TokenError('ERR_TOKEN_CERTIFICATE_NOT_VALID', `The certificate ${certificate.subject} is valid from ${certificate.notBefore} to ${certificate.notAfter}: not now.`, {
        status: 409,
      });
    }
    // prehashed-signer.ts brings @noble/curves and the ASN.1 stack: loaded with the first signature.
    const { signPrehashed } = await import('./prehashed-signer.js');
    const pkcs8 = await this.#store.privateKey(request.certificateId);
    try {
      return signPrehashed(pkcs8, request.scheme, request.hashAlgorithm, request.hash);
    } finally {
      pkcs8.fill(0);
    }
  }

  async release(): Promise<void> {
    // Nothing is held between signatures: the key is decrypted for each one and zeroed after it.
  }
}
