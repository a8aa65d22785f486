import { StationError } from '../../core/errors/station-error.js';

/** SQLite refused to open the store or to run a statement: the station's own fault, never the caller's. */
export class StoreError extends StationError {
  constructor(message: string, cause: unknown) {
    super('ERR_STORE_FAILED', message, { status: 500, cause });
  }
}
