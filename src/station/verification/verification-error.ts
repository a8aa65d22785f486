import { StationError } from '../../core/errors/station-error.js';

/** A file that cannot be verified at all (not a signed format the station reads, malformed beyond reading). */
export class VerificationError extends StationError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('ERR_VERIFY_UNSUPPORTED', message, { status: 400, ...options });
  }
}
