import { createHash } from 'node:crypto';
import type { PinSource, SignatureScheme, Token } from '../tokens/token.js';
import { HASH_ALGORITHMS, type HashAlgorithm } from '../pki/hash-algorithms.js';
import type { TsaSigner } from './tsa-signer.js';

export interface TokenTsaSignerOptions {
  /** The token holding the TSA key (a PKCS#11 token from the PKCS#11 bridge, or any other Token). */
  token: Token;
  /** The certificate id on the token whose key signs (`TokenCertificate.id`). */
  certificateId: string;
  /** The TSA certificate first, then its issuers, root last. */
  certificates: readonly Uint8Array[];
  /** As the token lets the key sign (tokenKeyScheme). */
  signatureScheme: SignatureScheme;
  digestAlgorithm?: HashAlgorithm;
  /**
   * Unattended PIN supply for the TSA key (for example read from the vault at start). The token zeroes the
   * buffer after use, so this must return a fresh copy each time.
   */
  pin: PinSource;
}

/**
 * TsaSigner over a `Token`: hashes the signed attributes here and has the token sign the hash, turning the
 * token's raw r||s ECDSA output into the DER ECDSA-Sig-Value that CMS carries.
 */
export class TokenTsaSigner implements TsaSigner {
  readonly certificates: readonly Uint8Array[];
  readonly signatureScheme: SignatureScheme;
  readonly digestAlgorithm: HashAlgorithm;
  readonly #options: TokenTsaSignerOptions;

  constructor(options: TokenTsaSignerOptions) {
    if (options.certificates.length === 0) throw new TypeError('TokenTsaSigner needs at least the TSA certificate');
    this.#options = options;
    this.certificates = options.certificates;
    this.signatureScheme = options.signatureScheme;
    this.digestAlgorithm = options.digestAlgorithm ?? 'SHA-256';
  }

  async sign(data: Uint8Array): Promise<Uint8Array> {
    const hash = createHash(HASH_ALGORITHMS[this.digestAlgorithm].nodeName).update(data).digest();
    const signature = await this.#options.token.sign({
      certificateId: this.#options.certificateId,
      hash,
      hashAlgorithm: this.digestAlgorithm,
      scheme: this.signatureScheme,
      pin: this.#options.pin,
      purpose: 'sign',
    });
    if (this.signatureScheme !== 'ECDSA') return signature;
    // The DER conversion brings @peculiar/x509: loaded with the first EC signature, not with the station.
    const { ecdsaRawToDer } = await import('../pki/ecdsa-raw-to-der.js');
    return ecdsaRawToDer(signature);
  }

  close(): Promise<void> {
    return this.#options.token.release();
  }
}
