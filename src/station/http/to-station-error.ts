import { StationError, isStationError } from '../../core/errors/station-error.js';

/** An error from a library that says which HTTP status it means (http-errors, @fastify/send). */
interface StatusError {
  statusCode?: number;
  message: string;
}

/** Maps anything thrown in a request to the StationError the boundary answers with. */
export function toStationError(error: unknown): StationError {
  if (isStationError(error)) return error;
  const candidate = error as StatusError | undefined;
  if (typeof candidate?.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
    return new StationError('ERR_HTTP_BAD_REQUEST', candidate.message, { status: candidate.statusCode, cause: error });
  }
  return new StationError('ERR_INTERNAL', 'The station failed to handle this request. Its log has the details.', { status: 500, cause: error });
}
