import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's per-request lines at debug instead of info: "incoming request" and "request completed" (at the TSA's
 * thousands of requests a second they would be most of the log and a share of each request's CPU), and the 503
 * answered to each request while the server closes. Failures are logged by the error handler, one line per kind.
 */
export class DebugRequestLines extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }

  override serviceUnavailable(logger: FastifyBaseLogger): void {
    logger.debug('answered 503: the station is closing');
  }
}
