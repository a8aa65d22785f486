import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StationError } from '../../core/errors/station-error.js';
import { wrongPinSchema, type JsonErrorBody } from '../../core/schemas/json-error-body.js';
import { rejectionResponse } from '../tsa/tsa-rejection-response.js';
import { RateLimitedLog } from './rate-limited-log.js';
import { toStationError } from './to-station-error.js';

const OAUTH_ERROR_BY_STATUS: Record<number, string> = { 400: 'invalid_request', 401: 'invalid_client', 403: 'access_denied' };

/** One line per failure kind (error code) at most this often; the next says how many were left out. */
const LOG_INTERVAL_MS = 10_000;

/**
 * The one place where errors become responses, in the format of the interface the route belongs to
 * (route config `errorFormat`): the service's JSON error body, an RFC 6749 OAuth error, or an RFC 3161 rejection.
 * A request refused before its body was read is answered with `Connection: close`, so the body is never read.
 */
export function installErrorHandler(app: FastifyInstance): void {
  const log = new RateLimitedLog(LOG_INTERVAL_MS);
  app.setErrorHandler((raw, request, reply) => {
    const error = toStationError(raw);
    log.note(error.code, (suppressed) => {
      const fields = { code: error.code, status: error.status, ...(suppressed ? { suppressed } : {}) };
      if (error.status >= 500) request.log.error({ ...fields, err: raw }, 'request failed');
      else request.log.info(fields, 'request refused');
    });
    if (!request.raw.complete) reply.header('connection', 'close');
    return sendError(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendJson(reply, { status: 404, code: 'ERR_HTTP_NOT_FOUND', message: `No endpoint ${request.method} ${request.url.split('?', 1)[0]}.` }),
  );
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: StationError): FastifyReply {
  const retryAfter = error.details?.retryAfterSeconds;
  if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  switch (request.routeOptions.config.errorFormat) {
    case 'oauth': {
      const oauthError = typeof error.details?.oauthError === 'string' ? error.details.oauthError : (OAUTH_ERROR_BY_STATUS[error.status] ?? 'server_error');
      return reply.code(error.status).header('cache-control', 'no-store').send({ error: oauthError, error_description: error.message });
    }
    case 'tsa': {
      // RFC 3161 has no failure bit for "not allowed": the caller's mistakes are badRequest, the station's systemFailure.
      const rejection = rejectionResponse(error.status >= 500 ? 'systemFailure' : 'badRequest', `${error.message} (${error.code})`);
      return reply.code(error.status).type('application/timestamp-reply').header('cache-control', 'no-store').send(rejection);
    }
    default:
      return sendJson(reply, error);
  }
}

function sendJson(reply: FastifyReply, error: Pick<StationError, 'status' | 'code' | 'message'> & { retriable?: boolean; details?: Record<string, unknown> | undefined }): FastifyReply {
  const errors = error.details?.errors as JsonErrorBody['errors'];
  // Other details may name paths or internals: only the PIN's state goes out.
  const pin = wrongPinSchema.safeParse(error.details?.pin);
  const body: JsonErrorBody = {
    status: 'error',
    message: error.message,
    code: error.code,
    ...(error.retriable === undefined ? {} : { retriable: error.retriable }),
    ...(errors ? { errors } : {}),
    ...(pin.success ? { details: { pin: pin.data } } : {}),
  };
  return reply.code(error.status).header('cache-control', 'no-store').send(body);
}
