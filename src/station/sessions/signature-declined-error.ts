import { StationError } from '../../core/errors/station-error.js';

export class SignatureDeclinedError extends StationError {
  constructor() {
    super('ERR_SIGNING_DECLINED', 'The signer declined in the station’s consent prompt.', { status: 409, retriable: true });
  }
}
