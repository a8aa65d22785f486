import { AsiceEngine, type AsiceDataFile, type AsiceSigningState } from './asice-engine.js';
import { PadesEngine, type PadesSigningState } from './pades-engine.js';
import type { DocumentSigner, FinishOptions, PrepareOptions, PreparedSignature } from './signing-options.js';

export type SignatureFormat = 'pades' | 'asice';
export type SigningState = PadesSigningState | AsiceSigningState;

/**
 * The one entry point of the formats engine. Two steps for keys the station does not hold in-process (browser
 * iframe, remote or slow tokens): prepare -> hash to sign -> finish with the signature value. One shot for a
 * HashSigner plug-in (PKCS#12 soft key now, PKCS#11 token and ID card later).
 *
 * `input` is a file path; for ASiC-E it may also be several files for a new container.
 */
export class SignatureEngine {
  static prepare(format: SignatureFormat, input: string | readonly AsiceDataFile[], options: PrepareOptions): Promise<PreparedSignature<SigningState>> {
    if (format === 'asice') return AsiceEngine.prepare(input, options);
    if (typeof input !== 'string') throw new TypeError('PAdES signs one PDF file');
    return PadesEngine.prepare(input, options);
  }

  /**
   * Reads a document as prepare will, without a signer, so a document that cannot be signed is refused before
   * anyone is asked to sign it. ASiC-E: an existing container (plain files need no reading).
   */
  static inspect(format: SignatureFormat, path: string, placement: { page?: number } = {}): Promise<void> {
    return format === 'pades' ? PadesEngine.inspect(path, placement) : AsiceEngine.inspect(path);
  }

  /** Resolves with the path written: outputPath, or with numberWhenTaken the numbered variant it took. */
  static finish(state: SigningState, signatureValue: Uint8Array, options: FinishOptions): Promise<string> {
    return state.format === 'pades' ? PadesEngine.finish(state, signatureValue, options) : AsiceEngine.finish(state, signatureValue, options);
  }

  /** Drops anything prepare left on disk, for a signature that will not be finished. */
  static async abort(state: SigningState): Promise<void> {
    if (state.format === 'pades') await PadesEngine.abort(state);
  }

  static async sign(
    format: SignatureFormat,
    input: string | readonly AsiceDataFile[],
    signer: DocumentSigner,
    options: Omit<PrepareOptions, 'certificate' | 'chain' | 'issuers' | 'keySchemes'> & FinishOptions,
  ): Promise<string> {
    const prepared = await SignatureEngine.prepare(format, input, {
      ...options,
      certificate: signer.certificate,
      ...(signer.chain ? { chain: signer.chain } : {}),
      ...(signer.issuers ? { issuers: signer.issuers } : {}),
      ...(signer.keySchemes ? { keySchemes: signer.keySchemes } : {}),
    });
    try {
      const signatureValue = await signer.sign(new Uint8Array(Buffer.from(prepared.dataToSignDigest, 'hex')), prepared.digestAlgorithm, prepared.signatureScheme);
      return await SignatureEngine.finish(prepared.state, signatureValue, options);
    } catch (error) {
      await SignatureEngine.abort(prepared.state);
      throw error;
    }
  }
}
