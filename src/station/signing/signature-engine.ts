import { AsiceEngine, type AsicePrepareOptions, type AsiceSigningState } from './asice-engine.js';
import { PadesEngine, type PadesSigningState } from './pades-engine.js';
import type { DocumentSigner, FinishOptions, PrepareOptions, PreparedSignature } from './signing-options.js';

export type SignatureFormat = 'pades' | 'asice';
export type SigningState = PadesSigningState | AsiceSigningState;

/**
 * The one entry point of the formats engine. Two steps for keys the station does not hold in-process (browser
 * iframe, remote or slow tokens): prepare -> hash to sign -> finish with the signature value. One shot for a
 * HashSigner plug-in (PKCS#12 soft key now, PKCS#11 token and ID card later).
 */
export class SignatureEngine {
  static prepare(format: SignatureFormat, documentPath: string, options: PrepareOptions & AsicePrepareOptions): Promise<PreparedSignature<SigningState>> {
    return format === 'pades' ? PadesEngine.prepare(documentPath, options) : AsiceEngine.prepare(documentPath, options);
  }

  static finish(state: SigningState, signatureValue: Uint8Array, options: FinishOptions): Promise<void> {
    return state.format === 'pades' ? PadesEngine.finish(state, signatureValue, options) : AsiceEngine.finish(state, signatureValue, options);
  }

  /** Drops anything prepare left on disk, for a signature that will not be finished. */
  static async abort(state: SigningState): Promise<void> {
    if (state.format === 'pades') await PadesEngine.abort(state);
  }

  static async sign(
    format: SignatureFormat,
    documentPath: string,
    signer: DocumentSigner,
    options: Omit<PrepareOptions & AsicePrepareOptions, 'certificate' | 'chain'> & FinishOptions,
  ): Promise<void> {
    const prepared = await SignatureEngine.prepare(format, documentPath, {
      ...options,
      certificate: signer.certificate,
      ...(signer.chain ? { chain: signer.chain } : {}),
    });
    try {
      const signatureValue = await signer.sign(new Uint8Array(Buffer.from(prepared.dataToSignDigest, 'hex')), prepared.digestAlgorithm);
      await SignatureEngine.finish(prepared.state, signatureValue, options);
    } catch (error) {
      await SignatureEngine.abort(prepared.state);
      throw error;
    }
  }
}
