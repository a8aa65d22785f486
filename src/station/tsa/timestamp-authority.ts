import { X509Certificate as NodeX509Certificate } from 'node:crypto';
import type { Database } from '../store/database.js';
import type { SecretVault } from '../keychain/secret-vault.js';
import type { Clock } from '../ports/clock.js';
import { verifyRawSignature } from '../pki/verify-raw-signature.js';
import { loadTsaIdentity } from './tsa-identity.js';
import type { parseTimestampRequest } from './tsa-request-parser.js';
import { TsaRejection } from './tsa-rejection.js';
import { rejectionResponse } from './tsa-rejection-response.js';
import { TsaError } from './tsa-error.js';
import { TsaSerialAllocator } from './tsa-serial-allocator.js';
import type { TsaSigner } from './tsa-signer.js';
import type { TimestampResponseEncoder } from './timestamp-response-encoder.js';
import { encodeAccuracy, type TsaAccuracy } from './tsa-accuracy.js';

/** What issues a token: the request parser and the token encoder, with asn1js and the @peculiar ASN.1 stack. */
interface Issuance {
  parse: typeof parseTimestampRequest;
  encoder: TimestampResponseEncoder;
}

/**
 * The station's TSA policy: a UUID-based OID (2.25, ITU-T X.667), so it needs no registered arc and cannot
 * collide with anyone else's policy.
 */
export const DEFAULT_TSA_POLICY_OID = '2.25.249320212787427268827247342268570996899';

export interface TimestampAuthorityOptions {
  database: Database;
  vault: SecretVault;
  clock: Clock;
  /** The one policy under which tokens are issued; requests naming another are rejected (unacceptedPolicy). */
  policyOid?: string;
  /** Stated in every token. Default: 1 second (the system clock, not a disciplined time source). */
  accuracy?: TsaAccuracy;
  /** Another key holder (a PKCS#11 token through TokenTsaSigner); default: the station's own key in the vault. */
  signer?: TsaSigner;
  /** Serial numbers reserved per store transaction. */
  serialBlockSize?: number;
}

/**
 * RFC 3161 timestamping authority: turns a DER TimeStampReq into a DER TimeStampResp. Opened once by the
 * composition root; `respond` is safe to call concurrently.
 */
export class TimestampAuthority {
  readonly policyOid: string;
  readonly #signer: TsaSigner;
  readonly #accuracy: Buffer;
  readonly #serials: TsaSerialAllocator;
  readonly #clock: Clock;
  #issuance: Promise<Issuance> | undefined;

  private constructor(signer: TsaSigner, serials: TsaSerialAllocator, clock: Clock, policyOid: string, accuracy: TsaAccuracy) {
    this.policyOid = policyOid;
    this.#signer = signer;
    this.#serials = serials;
    this.#clock = clock;
    this.#accuracy = encodeAccuracy(accuracy);
  }

  /** Loads (on first start: creates) the TSA root, certificate and key, and checks the signer works. */
  static async open(options: TimestampAuthorityOptions): Promise<TimestampAuthority> {
    const policyOid = options.policyOid ?? DEFAULT_TSA_POLICY_OID;
    if (!/^[0-2](\.(0|[1-9]\d*))+$/.test(policyOid)) throw new TypeError(`policyOid is not an OID: ${policyOid}`);
    // The station's own key and certificate were made together by loadTsaIdentity; a configured signer is checked.
    const signer = options.signer ? await checkSigner(options.signer) : await loadTsaIdentity(options);
    return new TimestampAuthority(signer, new TsaSerialAllocator(options.database, options.serialBlockSize), options.clock, policyOid, options.accuracy ?? { seconds: 1 });
  }

  /** The certificate chain in DER: the TSA certificate first, root last. */
  get certificates(): readonly Uint8Array[] {
    return this.#signer.certificates;
  }

  /**
   * Answers a request with a granted token, or with a PKIStatus rejection for anything RFC 3161 lets a TSA
   * refuse. Throws only when the station itself fails (store, signer): the HTTP error handler answers a systemFailure rejection.
   */
  async respond(requestDer: Uint8Array): Promise<Buffer> {
    try {
      const { parse, encoder } = await this.#issue();
      const request = parse(requestDer, this.policyOid);
      const serialNumber = await this.#serials.next();
      return await encoder.grant(request, { serialNumber, genTime: this.#clock.now() });
    } catch (error) {
      if (error instanceof TsaRejection && error.failInfo !== 'systemFailure') return rejectionResponse(error.failInfo, error.message);
      throw error;
    }
  }

  /** The parser and encoder, loaded and built for the first request: a start that issues no token skips them. */
  #issue(): Promise<Issuance> {
    this.#issuance ??= Promise.all([import('./tsa-request-parser.js'), import('./timestamp-response-encoder.js')]).then(([parser, { TimestampResponseEncoder }]) => ({
      parse: parser.parseTimestampRequest,
      encoder: new TimestampResponseEncoder({ signer: this.#signer, policyOid: this.policyOid, accuracy: this.#accuracy }),
    }));
    return this.#issuance;
  }

  async close(): Promise<void> {
    await this.#serials.drain();
    await this.#signer.close?.();
  }
}

/**
 * A signer from configuration (a token, a KMS) can be paired with the wrong certificate or one that is not a
 * TSA certificate; both would produce tokens no verifier accepts, so the station refuses to start with them.
 */
async function checkSigner(signer: TsaSigner): Promise<TsaSigner> {
  const { x509 } = await import('../pki/x509.js');
  const [first] = signer.certificates;
  if (!first) throw new TsaError('ERR_TSA_CERTIFICATE_INVALID', 'The TSA signer has no certificate.');
  const eku = new x509.X509Certificate(Uint8Array.from(first)).getExtension(x509.ExtendedKeyUsageExtension);
  if (!eku?.critical || eku.usages.length !== 1 || eku.usages[0] !== x509.ExtendedKeyUsage.timeStamping) {
    throw new TsaError('ERR_TSA_CERTIFICATE_INVALID', 'The TSA certificate must have exactly one extended key usage, timeStamping, marked critical (RFC 3161 2.3).');
  }
  const probe = Buffer.from('signing-station tsa key check');
  let signature: Uint8Array;
  try {
    signature = await signer.sign(probe);
  } catch (cause) {
    throw new TsaError('ERR_TSA_SIGNER_FAILED', `The TSA signer cannot sign: ${(cause as Error).message}`, { cause, retriable: true });
  }
  const publicKey = new NodeX509Certificate(first).publicKey;
  if (!verifyRawSignature(publicKey, signer.signatureScheme, signer.digestAlgorithm, probe, signature, 'der')) {
    throw new TsaError('ERR_TSA_KEY_MISMATCH', 'The TSA signer’s key does not match its certificate.');
  }
  return signer;
}
