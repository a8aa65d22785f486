import { StationError } from '../../core/errors/station-error.js';

/** The page that asked for the signature cancelled it or went away (tab closed, frame gone): nothing is signed. */
export class RequesterGoneError extends StationError {
  constructor() {
    super('ERR_SIGNING_REQUESTER_GONE', 'The web page that asked for this signature cancelled it or went away; nothing was signed.', { status: 409 });
  }
}
