// The station's UserPrompt answered by a script: records what was asked, answers as told.
import type { CertificateChoiceRequest, PinRequest, SignatureConsentRequest } from '../../../src/core/schemas/prompts.js';
import type { UserPrompt } from '../../../src/station/ports/user-prompt.js';

export class ScriptedPrompt implements UserPrompt {
  readonly confirms: SignatureConsentRequest[] = [];
  readonly pins: PinRequest[] = [];
  readonly choices: CertificateChoiceRequest[] = [];
  agree = true;
  pin: string | null = '1234';
  /** Which certificate the user picks: by index, by a text its subject contains, or none (null: cancels). */
  choice: number | string | null = 0;

  #held: Promise<void> | undefined;

  /** The next confirm waits until the returned function is called: a user who has not answered yet. */
  holdNextConfirm(): () => void {
    let release!: () => void;
    this.#held = new Promise((resolve) => (release = resolve));
    return release;
  }

  async confirm(request: SignatureConsentRequest): Promise<boolean> {
    this.confirms.push(request);
    const held = this.#held;
    this.#held = undefined;
    await held;
    return this.agree;
  }

  /** Answers for the next PIN prompts, in order (null: the user cancels); `pin` answers once they are used up. */
  readonly pinAnswers: Array<string | null> = [];
  #pinHeld: Promise<void> | undefined;

  /** The next PIN prompt waits until the returned function is called. */
  holdNextPin(): () => void {
    let release!: () => void;
    this.#pinHeld = new Promise((resolve) => (release = resolve));
    return release;
  }

  async askPin(request: PinRequest): Promise<Uint8Array | null> {
    this.pins.push(request);
    const held = this.#pinHeld;
    this.#pinHeld = undefined;
    await held;
    const answer = this.pinAnswers.length ? this.pinAnswers.shift()! : this.pin;
    return answer === null ? null : new TextEncoder().encode(answer);
  }

  async chooseCertificate(request: CertificateChoiceRequest): Promise<number | null> {
    this.choices.push(request);
    if (typeof this.choice !== 'string') return this.choice;
    const wanted = this.choice;
    const index = request.candidates.findIndex((candidate) => candidate.subject.includes(wanted));
    if (index < 0) throw new Error(`no certificate offered with ${wanted} in its subject`);
    return index;
  }
}
