import { StationError } from '../../core/errors/station-error.js';

export class SigningNotStartedError extends StationError {
  constructor() {
    super('ERR_SIGNING_NOT_STARTED', 'No signature was started with this token for this document and method; call start-signing again.', { status: 409 });
  }
}
