import type { BrowserErrorCode, PassedOnErrorCode } from '../core/errors/browser-error-codes.js';
import type { JsonErrorBody } from '../core/schemas/json-error-body.js';
/** A refusal from the station (or the page itself), with its stable code and whether trying again can help. */
export class StationCallError extends Error {
  constructor(
    readonly code: BrowserErrorCode | PassedOnErrorCode,
    message: string,
    readonly retriable: boolean,
    /** What the page may show the person beyond the code (the tries left after a wrong PIN). */
    readonly details?: JsonErrorBody['details'],
  ) {
    super(message);
    this.name = 'StationCallError';
  }
}
