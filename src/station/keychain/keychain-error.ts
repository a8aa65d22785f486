import { StationError, type StationErrorOptions } from '../../core/errors/station-error.js';

export class KeychainError extends StationError {
  constructor(message: string, options: StationErrorOptions = {}) {
    super('ERR_KEYCHAIN_UNAVAILABLE', message, { status: 503, retriable: true, ...options });
  }
}
