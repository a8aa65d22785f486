import type { HttpApp } from './server/http-app.js';
import type { HttpReply } from './server/http-reply.js';
import type { HttpRequest } from './server/http-request.js';
import type { StationError } from '../../core/errors/station-error.js';
import type { JsonErrorBody } from '../../core/schemas/json-error-body.js';
import { toStationError } from './to-station-error.js';

const OAUTH_ERROR_BY_STATUS: Record<number, string> = { 400: 'invalid_request', 401: 'invalid_client', 403: 'access_denied' };

/**
 * The one place where errors become responses, in the format of the interface the route belongs to
 * (route config `errorFormat`): the service's JSON error body, or an RFC 6749 OAuth error.
 */
export function installErrorHandler(app: HttpApp): void {
  app.setErrorHandler((raw, request, reply) => {
    const error = toStationError(raw);
    if (error.status >= 500) request.log.error({ err: raw, code: error.code }, 'request failed');
    else request.log.info({ code: error.code, status: error.status }, 'request refused');
    return sendError(request, reply, error);
  });
  app.setNotFoundHandler((request, reply) =>
    sendJson(reply, { status: 404, code: 'ERR_HTTP_NOT_FOUND', message: `No endpoint ${request.method} ${request.path}.` }),
  );
}

export function sendError(request: HttpRequest, reply: HttpReply, error: StationError): HttpReply {
  if (request.routeConfig.errorFormat === 'oauth') {
    const oauthError = typeof error.details?.oauthError === 'string' ? error.details.oauthError : (OAUTH_ERROR_BY_STATUS[error.status] ?? 'server_error');
    return reply.code(error.status).header('cache-control', 'no-store').send({ error: oauthError, error_description: error.message });
  }
  return sendJson(reply, error);
}

function sendJson(reply: HttpReply, error: Pick<StationError, 'status' | 'code' | 'message'> & { retriable?: boolean; details?: Record<string, unknown> | undefined }): HttpReply {
  const errors = error.details?.errors as JsonErrorBody['errors'];
  const body: JsonErrorBody = {
    status: 'error',
    message: error.message,
    code: error.code,
    ...(error.retriable === undefined ? {} : { retriable: error.retriable }),
    ...(errors ? { errors } : {}),
  };
  return reply.code(error.status).header('cache-control', 'no-store').send(body);
}
