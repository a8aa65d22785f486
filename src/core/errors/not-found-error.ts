import { StationError, type StationErrorCode } from './station-error.js';

export class NotFoundError extends StationError {
  constructor(code: StationErrorCode, message: string) {
    super(code, message, { status: 404 });
  }
}
