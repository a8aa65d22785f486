import { StationError, type StationErrorCode, type StationErrorOptions } from '../../core/errors/station-error.js';

/** The secret vault cannot serve a secret: its master key is missing or wrong, or a stored secret was altered. */
export class VaultError extends StationError {
  constructor(code: Extract<StationErrorCode, `ERR_VAULT_${string}`>, message: string, options: StationErrorOptions = {}) {
    super(code, message, options);
  }
}
