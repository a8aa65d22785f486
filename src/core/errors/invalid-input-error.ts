import { StationError } from './station-error.js';

/** Bad input from outside (HTTP body, CLI flag, config file): 400 with the offending fields. */
export class InvalidInputError extends StationError {
  constructor(message: string, errors?: Record<string, string[]>) {
    super('ERR_INPUT_INVALID', message, { status: 400, ...(errors ? { details: { errors } } : {}) });
  }
}
