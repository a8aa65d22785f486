import { StationError, type StationErrorCode, type StationErrorOptions } from '../../core/errors/station-error.js';

/** The TSA cannot serve at all (key or certificate missing, signer broken): the station's fault, not the caller's. */
export class TsaError extends StationError {
  constructor(code: StationErrorCode, message: string, options: StationErrorOptions = {}) {
    super(code, message, { status: 500, ...options });
  }
}
