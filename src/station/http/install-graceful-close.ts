import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/** The close goes on once no request has arrived or waited for its answer for this long... */
const QUIET_MS = 300;
/**
 * ...or after this long at most, when whatever connection is still open is closed: within the 5 s a service manager
 * or the desktop app gives a stop, with the rest of the station's close after it.
 */
const LIMIT_MS = 4000;

/** Node says nothing when a response's head is written, so the drain looks at the open responses this often. */
const POLL_MS = 10;

/**
 * How the server stops (SIGTERM, SIGINT and the desktop app's quit all close the station):
 * 1. Fastify marks itself closing: a request arriving from then on, on any connection, is answered 503 with
 *    `Connection: close` (`return503OnClosing`).
 * 2. Here (preClose): every answer still being made carries `Connection: close`, and the close waits until no
 *    request has arrived or waited for its answer for QUIET_MS. A keep-alive client between two requests sends its
 *    next one, hears 503 and closes, instead of having its connection closed under a request it has just sent.
 * 3. Fastify stops listening and closes idle connections (`forceCloseConnections: 'idle'`); at LIMIT_MS whatever
 *    is still open (a stream nobody ended) is closed, so the close is bounded.
 */
export function installGracefulClose(app: FastifyInstance): void {
  const open = new Set<ServerResponse>();
  let lastArrival = -Infinity;
  let closing = false;
  let deadline: NodeJS.Timeout | undefined;

  // `Connection: close` is set on the responses themselves, not by an onSend hook every answer would pass through:
  // on those still open when the close starts and on any that start meanwhile (Fastify merges its headers in).
  const answerThenClose = (response: ServerResponse): void => {
    if (!response.headersSent) response.setHeader('connection', 'close');
  };
  app.server.on('request', (_request, response: ServerResponse) => {
    lastArrival = performance.now();
    open.add(response);
    response.once('close', () => open.delete(response));
    if (closing) answerThenClose(response);
  });

  app.addHook('preClose', async () => {
    closing = true;
    for (const response of open) answerThenClose(response);
    const started = performance.now();
    deadline = setTimeout(() => app.server.closeAllConnections(), LIMIT_MS).unref();
    const waiting = (): boolean => [...open].some((response) => !response.headersSent);
    while (performance.now() - started < LIMIT_MS && (waiting() || performance.now() - lastArrival < QUIET_MS)) await delay(POLL_MS);
  });

  app.addHook('onClose', async () => clearTimeout(deadline));
}
