import type { FastifyReply } from 'fastify';
import { requesterGoneSignal } from '../http/requester-gone-signal.js';

/**
 * Aborts when the framed page's request closes, or when the embedding page's client stops waiting (`timeoutMs`,
 * which it sent along): the prompts of that request are then withdrawn, so none outlives the client's own timeout.
 * The prompts' own deadline still applies when it comes first.
 */
export function frameCallSignal(reply: FastifyReply, timeoutMs: number | undefined): AbortSignal {
  const gone = requesterGoneSignal(reply);
  return timeoutMs === undefined ? gone : AbortSignal.any([gone, AbortSignal.timeout(timeoutMs)]);
}
