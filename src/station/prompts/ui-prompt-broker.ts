import { randomUUID } from 'node:crypto';
import type { PendingPrompt, PromptAnswer } from '../../core/schemas/admin-api.js';
import type { CertificateChoiceRequest, PinRequest, SignatureConsentRequest } from '../../core/schemas/prompts.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { Clock } from '../ports/clock.js';
import type { UserPrompt } from '../ports/user-prompt.js';
import { TooManyPromptsError } from './too-many-prompts-error.js';

const PROMPT_TIMEOUT_MS = 5 * 60_000;
/** Open prompts in all: a flood of requests cannot bury the one the user is expecting. */
export const MAX_PENDING_PROMPTS = 16;
/** Open prompts per requester (origin, client, 'cli'): one page cannot take every slot. */
export const MAX_PENDING_PROMPTS_PER_REQUESTER = 3;

interface Waiting {
  prompt: PendingPrompt;
  settle(answer: PromptAnswer): void;
}

/**
 * The headless UserPrompt: prompts wait in memory until the station's UI page (behind its credential) answers
 * them. An unanswered prompt is declined after five minutes, or at once when the caller aborts (the requester went
 * away). A second login prompt like an open one withdraws the older. Bounded: beyond MAX_PENDING_PROMPTS, or
 * MAX_PENDING_PROMPTS_PER_REQUESTER from one requester, a new prompt is refused with a retriable 429 before the
 * user sees it.
 */
export class UiPromptBroker implements UserPrompt {
  readonly #waiting = new Map<string, Waiting>();
  readonly #listeners = new Set<() => void>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  pending(): PendingPrompt[] {
    return [...this.#waiting.values()].map((waiting) => waiting.prompt);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  answer(id: string, answer: PromptAnswer): void {
    const waiting = this.#waiting.get(id);
    if (!waiting) throw new NotFoundError('ERR_PROMPT_NOT_FOUND', 'This prompt was already answered or has expired.');
    if (answer.kind !== 'cancel' && answer.kind !== waiting.prompt.kind) {
      throw new InvalidInputError(`This prompt asks for ${waiting.prompt.kind}, not ${answer.kind}.`);
    }
    waiting.settle(answer);
  }

  /** A new prompt's id and times, read from the station's clock. */
  #promptTimes(): { id: string; createdAt: string; expiresAt: string } {
    const now = this.#clock.now().getTime();
    return { id: randomUUID(), createdAt: new Date(now).toISOString(), expiresAt: new Date(now + PROMPT_TIMEOUT_MS).toISOString() };
  }

  async confirm(request: SignatureConsentRequest, signal?: AbortSignal): Promise<boolean> {
    const answer = await this.#ask({ ...this.#promptTimes(), kind: 'consent', request }, signal);
    return answer.kind === 'consent' && answer.accept;
  }

  async askPin(request: PinRequest, signal?: AbortSignal): Promise<Uint8Array | null> {
    const answer = await this.#ask({ ...this.#promptTimes(), kind: 'pin', request }, signal);
    return answer.kind === 'pin' ? new Uint8Array(Buffer.from(answer.pin, 'utf8')) : null;
  }

  async chooseCertificate(request: CertificateChoiceRequest, signal?: AbortSignal): Promise<number | null> {
    const answer = await this.#ask({ ...this.#promptTimes(), kind: 'certificate', request }, signal);
    return answer.kind === 'certificate' && answer.index < request.candidates.length ? answer.index : null;
  }

  #ask(prompt: PendingPrompt, signal?: AbortSignal): Promise<PromptAnswer> {
    const requester = prompt.request.requester;
    // A login asked again by the same page for the same client and certificate (a retry, a second click) replaces
    // the first, whose page no longer waits for it: the user never sees two identical login prompts stacked.
    const login = loginKey(prompt);
    for (const waiting of this.#waiting.values()) {
      if (login !== undefined && loginKey(waiting.prompt) === login) waiting.settle({ kind: 'cancel' });
    }
    const open = [...this.#waiting.values()];
    if (open.length >= MAX_PENDING_PROMPTS) return Promise.reject(new TooManyPromptsError(undefined));
    if (open.filter((waiting) => waiting.prompt.request.requester === requester).length >= MAX_PENDING_PROMPTS_PER_REQUESTER) {
      return Promise.reject(new TooManyPromptsError(requester));
    }
    return new Promise((resolve) => {
      const finish = (answer: PromptAnswer): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#waiting.delete(prompt.id);
        this.#notify();
        resolve(answer);
      };
      const onAbort = (): void => finish({ kind: 'cancel' });
      const timer = setTimeout(onAbort, PROMPT_TIMEOUT_MS);
      timer.unref();
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(prompt.id, { prompt, settle: finish });
      this.#notify();
    });
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** What makes two login consents the same question to the user: who asks, for which client, with which certificate. */
function loginKey(prompt: PendingPrompt): string | undefined {
  if (prompt.kind !== 'consent' || prompt.request.purpose !== 'authenticate') return undefined;
  const { requester, clientId, signerIssuer, signerSerialNumber } = prompt.request;
  return JSON.stringify([requester, clientId, signerIssuer, signerSerialNumber]);
}
