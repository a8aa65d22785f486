import { StationError, isStationError } from '../../core/errors/station-error.js';

/** An error from Fastify or a library that says which HTTP status it means (http-errors, @fastify/send). */
interface StatusError {
  code?: string;
  statusCode?: number;
  message: string;
}

/** Maps anything thrown in a request to the StationError the boundary answers with. */
export function toStationError(error: unknown): StationError {
  if (isStationError(error)) return error;
  const candidate = error as StatusError | undefined;
  switch (candidate?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new StationError('ERR_HTTP_BODY_TOO_LARGE', 'The request body is larger than this endpoint accepts.', { status: 413, cause: error });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new StationError('ERR_HTTP_UNSUPPORTED_MEDIA_TYPE', 'This endpoint does not accept that Content-Type.', { status: 415, cause: error });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new StationError('ERR_INPUT_INVALID', 'The request body is empty; JSON was expected.', { status: 400, cause: error });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new StationError('ERR_INPUT_INVALID', 'The request body is not valid JSON.', { status: 400, cause: error });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new StationError('ERR_HTTP_BAD_REQUEST', 'The Content-Length does not match the body.', { status: 400, cause: error });
  }
  // secure-json-parse's refusal of `__proto__` and `constructor.prototype` keys, which Fastify marks 400.
  if (error instanceof SyntaxError && candidate?.statusCode === 400) {
    return new StationError('ERR_INPUT_INVALID', 'The request body is not valid JSON for the station (it reaches for a prototype).', { status: 400, cause: error });
  }
  if (typeof candidate?.statusCode === 'number' && candidate.statusCode >= 400 && candidate.statusCode < 500) {
    return new StationError('ERR_HTTP_BAD_REQUEST', candidate.message, { status: candidate.statusCode, cause: error });
  }
  return new StationError('ERR_INTERNAL', 'The station failed to handle this request. Its log has the details.', { status: 500, cause: error });
}
