import { StationError, type StationErrorCode } from './station-error.js';

export class ForbiddenError extends StationError {
  constructor(code: StationErrorCode, message: string) {
    super(code, message, { status: 403 });
  }
}
