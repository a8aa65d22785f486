import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * Fastify's request lines ("incoming request", "request completed") at debug instead of info: one line in and one
 * out per request is debugging detail, and at the TSA's thousands of requests a second it would be most of the
 * log and several per cent of each request's CPU. Failed requests and everything else keep Fastify's levels.
 */
export class DebugRequestLines extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
