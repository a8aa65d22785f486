import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import type { StationState } from '../../../core/schemas/station-state.js';
import type { StationStateFeed } from '../../ui-state/station-state-feed.js';
import { setSecurityHeaders } from '../install-security-headers.js';

/** A comment line now and then keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 20_000;

/**
 * The station window's push channel (mounted under /admin/api, UI credential):
 * - GET /state: the whole state once, for a first paint or a reload;
 * - GET /events: server-sent events, one `state` event with the whole state now and after every change. The page
 *   reads it with fetch (EventSource cannot send the Authorization header the credential travels in).
 */
export function eventsRoutes(feed: StationStateFeed): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'station' as const, requiresUiSession: true };
    // Open streams never finish on their own: closing the server ends them, or it would wait for them forever.
    const open = new Set<FastifyReply>();
    app.addHook('preClose', async () => {
      for (const reply of open) reply.raw.end();
    });

    app.get('/state', { config }, async (): Promise<StationState> => feed.state());

    app.get('/events', { config }, async (request, reply) => {
      const first = await feed.state();
      openEventStream(reply);
      const send = (state: StationState): void => void reply.raw.write(`event: state\ndata: ${JSON.stringify(state)}\n\n`);
      send(first);
      const unsubscribe = feed.subscribe(send);
      open.add(reply);
      const heartbeat = setInterval(() => reply.raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
      request.raw.once('close', () => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(reply);
      });
    });
  };
}

/** The stream is written by hand from here on, so it carries the headers the server's hooks would have set. */
function openEventStream(reply: FastifyReply): void {
  reply.hijack();
  setSecurityHeaders(reply.raw);
  reply.raw.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  reply.raw.flushHeaders();
}
