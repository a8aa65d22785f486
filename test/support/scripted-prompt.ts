import type { UserPrompt } from '../../src/station/ports/user-prompt.js';
import type { SignatureConsentRequest } from '../../src/core/schemas/prompts.js';

/** A UserPrompt whose answers the test sets, recording what the user would have been shown. */
export class ScriptedPrompt implements UserPrompt {
  consentAnswer = true;
  readonly consents: SignatureConsentRequest[] = [];

  async confirm(request: SignatureConsentRequest): Promise<boolean> {
    this.consents.push(request);
    return this.consentAnswer;
  }

  async askPin(): Promise<Uint8Array | null> {
    return null;
  }

  async chooseCertificate(): Promise<number | null> {
    return null;
  }

  async confirmModule(): Promise<boolean> {
    return false;
  }
}
