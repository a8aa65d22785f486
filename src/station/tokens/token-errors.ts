import { StationError, type StationErrorOptions } from '../../core/errors/station-error.js';

/** Errors from tokens and cards. `retriable` tells whether trying again (same or other PIN, card back) can help. */
export class TokenError extends StationError {}

export class PinIncorrectError extends TokenError {
  readonly retriesLeft: number | undefined;
  constructor(retriesLeft: number | undefined, options: StationErrorOptions = {}) {
    super('ERR_TOKEN_PIN_INCORRECT', retriesLeft === undefined ? 'Wrong PIN.' : `Wrong PIN: ${retriesLeft} tries left.`, {
      status: 403,
      retriable: true,
      details: retriesLeft === undefined ? {} : { retriesLeft },
      ...options,
    });
    this.retriesLeft = retriesLeft;
  }
}

export class PinLockedError extends TokenError {
  constructor(options: StationErrorOptions = {}) {
    super('ERR_TOKEN_PIN_LOCKED', 'The PIN is blocked. Unblock it with the PUK or the card issuer’s tool.', {
      status: 403,
      retriable: false,
      ...options,
    });
  }
}

export class UserCancelledError extends TokenError {
  constructor(options: StationErrorOptions = {}) {
    super('ERR_TOKEN_USER_CANCELLED', 'The user cancelled.', { status: 409, retriable: true, ...options });
  }
}

export class TokenRemovedError extends TokenError {
  constructor(options: StationErrorOptions = {}) {
    super('ERR_TOKEN_REMOVED', 'The card or token was removed during the operation. Insert it and try again.', {
      status: 409,
      retriable: true,
      ...options,
    });
  }
}

export class TokenUnavailableError extends TokenError {
  constructor(message: string, options: StationErrorOptions = {}) {
    super('ERR_TOKEN_UNAVAILABLE', message, { status: 503, retriable: true, ...options });
  }
}
