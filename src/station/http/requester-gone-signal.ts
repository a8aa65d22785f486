import type { FastifyReply } from 'fastify';

/**
 * Aborts when the response closes before it was sent: nobody is left to see the answer, so any prompt the
 * request waits on is withdrawn from the user instead of asking on behalf of someone who has gone.
 */
export function requesterGoneSignal(reply: FastifyReply): AbortSignal {
  const abort = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  return abort.signal;
}
