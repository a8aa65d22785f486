import type { ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import type { BrowserErrorCode, PassedOnErrorCode } from '../core/errors/browser-error-codes.js';
import type { WrongPin } from '../core/schemas/browser-client-wire.js';
import { userMessage } from './user-message.js';

/**
 * What `fail` receives: the published client's fields (`isCancel`, `userMessage` from the service's `message`,
 * `userDetails` from its `errors`) plus the station's stable `code` and the whole answer as `response`.
 */
export class ClientError extends Error {
  readonly isCancel: boolean;
  readonly userMessage: string | undefined;
  readonly userDetails: Record<string, string[]> | undefined;
  readonly code: BrowserErrorCode | PassedOnErrorCode;
  readonly response: { data: ServiceAnswer } | undefined;
  /** What the person may be told beyond the code: `pin` after a PIN prompt cancelled following a wrong PIN. */
  readonly details: { pin?: WrongPin } | undefined;

  constructor(code: BrowserErrorCode | PassedOnErrorCode, message: string, options: { isCancel?: boolean; answer?: ServiceAnswer; userMessage?: string } = {}) {
    super(message);
    this.name = 'ClientError';
    this.code = code;
    this.isCancel = options.isCancel ?? false;
    this.userMessage = options.userMessage ?? options.answer?.message;
    this.userDetails = options.answer?.errors;
    this.response = options.answer ? { data: options.answer } : undefined;
    const details = options.answer?.details;
    this.details = typeof details === 'object' && details !== null ? (details as { pin?: WrongPin }) : undefined;
  }

  /**
   * This error as `fail` hands it to the page: `userMessage` in `language` that a person can act on, `isCancel`
   * from what happened (whoever raised it), the technical detail kept in `message` and `response`.
   */
  forPerson(language: string | undefined): ClientError {
    const { isCancel, text } = userMessage(this.code, language, this.userMessage, this.details?.pin);
    return new ClientError(this.code, this.message, { isCancel: isCancel || this.isCancel, userMessage: text, ...(this.response ? { answer: this.response.data } : {}) });
  }
}

export const cancelled = (): ClientError => new ClientError('ERR_CLIENT_CANCELLED', 'Cancelled by the user.', { isCancel: true });
