import { StationError } from '../../core/errors/station-error.js';

/** The user already has as many open questions as the station will put in front of them. */
export class TooManyPromptsError extends StationError {
  constructor(requester: string | undefined) {
    super(
      'ERR_PROMPT_TOO_MANY',
      requester
        ? `${requester} already waits for the user's answer to earlier requests; try again once they are answered.`
        : 'Too many requests already wait for the user’s answer; try again once they are answered.',
      { status: 429, retriable: true },
    );
  }
}
