import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StationError } from '../../../core/errors/station-error.js';
import type { BodyBudget } from '../body-budget.js';

/** How long a caller refused for lack of room is asked to wait: bodies in flight are read within seconds. */
const RETRY_AFTER_SECONDS = 2;

/** What a streamed body (route config `bodyStreamed`) holds at most at once: the stream's buffers and its small fields. */
export const STREAMED_BODY_BYTES = 1024 * 1024;

/**
 * Admits a request's body from its headers, before a byte of it is read: a Content-Length over the route's limit is
 * refused with 413, and a body the station has no room to hold now (BodyBudget) with 503 and Retry-After. A body
 * without a declared length is counted at its route's limit, the most it may grow to; a streamed one at its window.
 */
export function installBodyAdmission(app: FastifyInstance, budget: BodyBudget): void {
  app.addHook('onRequest', (request, reply, done) => {
    const declared = declaredBodyLength(request);
    if (declared === 0) return done();
    const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
    if (declared !== undefined && declared > limit) {
      return done(new StationError('ERR_HTTP_BODY_TOO_LARGE', 'The request body is larger than this endpoint accepts.', { status: 413 }));
    }
    const bytes = request.routeOptions.config.bodyStreamed ? STREAMED_BODY_BYTES : (declared ?? limit);
    const release = budget.reserve(bytes);
    if (!release) {
      return done(
        new StationError('ERR_HTTP_BUSY', 'The station is receiving other large requests; try again in a moment.', {
          status: 503,
          retriable: true,
          details: { retryAfterSeconds: RETRY_AFTER_SECONDS },
        }),
      );
    }
    reply.raw.once('close', release);
    done();
  });
}

/** 0 for a request without a body, the declared length, or undefined for a chunked body of unknown length. */
function declaredBodyLength(request: FastifyRequest): number | undefined {
  if (request.method === 'GET' || request.method === 'HEAD') return 0;
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length);
  return request.headers['transfer-encoding'] === undefined ? 0 : undefined;
}
