import type { CertificateChoiceRequest, PinRequest, SignatureConsentRequest } from '../../core/schemas/prompts.js';

/**
 * The station's own trusted prompts. Under Electron they are native windows; headless, they go to the station's
 * UI page; in tests a real browser page or a scripted port answers.
 */
export interface UserPrompt {
  /** Resolves true only when the user explicitly agreed. */
  confirm(request: SignatureConsentRequest, signal?: AbortSignal): Promise<boolean>;
  /**
   * Resolves with the PIN bytes, or null when the user cancelled. The caller owns the buffer and must zero it
   * (`pin.fill(0)`) as soon as it has been used.
   */
  askPin(request: PinRequest, signal?: AbortSignal): Promise<Uint8Array | null>;
  /** Resolves with the chosen candidate's index, or null when cancelled. */
  chooseCertificate(request: CertificateChoiceRequest, signal?: AbortSignal): Promise<number | null>;
}
