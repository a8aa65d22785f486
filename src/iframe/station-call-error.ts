import type { BrowserErrorCode, PassedOnErrorCode } from '../core/errors/browser-error-codes.js';
/** A refusal from the station (or the page itself), with its stable code and whether trying again can help. */
export class StationCallError extends Error {
  constructor(
    readonly code: BrowserErrorCode | PassedOnErrorCode,
    message: string,
    readonly retriable: boolean,
  ) {
    super(message);
    this.name = 'StationCallError';
  }
}
