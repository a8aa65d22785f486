import { StationError } from '../../core/errors/station-error.js';

export class UiSessionRequiredError extends StationError {
  constructor() {
    super('ERR_UI_SESSION_REQUIRED', 'Open the station UI through the link the station printed (it carries a one-time token).', { status: 401 });
  }
}
