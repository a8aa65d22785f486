import { StationError, type StationErrorCode, type StationErrorOptions } from '../../core/errors/station-error.js';

/**
 * A timestamp could not be obtained from a TSA: unreachable (retriable), refused (PKIStatus rejection, in
 * `details.failInfo`), or answered with something that does not match the request (wrong imprint or nonce).
 */
export class TimestampClientError extends StationError {
  constructor(code: StationErrorCode, message: string, options: StationErrorOptions = {}) {
    super(code, message, { status: 502, ...options });
  }
}
