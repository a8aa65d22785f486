import { StationError } from '../../core/errors/station-error.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';

export class SessionNotFoundError extends NotFoundError {
  constructor() {
    // Same answer for "no such document" and "another client's document": ids are not an oracle.
    super('ERR_SESSION_NOT_FOUND', 'No signing session with this doc_id exists for this client.');
  }
}

export class SessionExpiredError extends StationError {
  constructor(expiredAt: string) {
    super('ERR_SESSION_EXPIRED', `This signing session expired at ${expiredAt}; prepare the files again.`, { status: 410 });
  }
}

export class ReasonMismatchError extends StationError {
  constructor() {
    super('ERR_REASON_MISMATCH', 'The typed text does not match the signing reason exactly.', {
      status: 400,
      details: { errors: { reason_text: ['must equal the signing reason exactly'] } },
    });
  }
}

export class ReasonNotAcceptedError extends StationError {
  constructor() {
    super('ERR_REASON_NOT_ACCEPTED', 'This document requires the signer to accept the signing reason before signing.', { status: 409 });
  }
}

export class ClientAuthenticationError extends StationError {
  constructor() {
    super('ERR_CLIENT_AUTH_FAILED', 'Unknown client_id or wrong secret.', { status: 401 });
  }
}
