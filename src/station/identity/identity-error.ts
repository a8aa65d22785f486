import { StationError } from '../../core/errors/station-error.js';

/** Failures of identification: unknown method or account, refused or timed-out confirmation, bad session. */
export class IdentityError extends StationError {}
