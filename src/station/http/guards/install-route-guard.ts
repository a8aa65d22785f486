import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../core/errors/not-found-error.js';
import type { ClientRegistry } from '../../clients/client-registry.js';
import { allowRegisteredOrigin } from '../allow-registered-origin.js';

/**
 * A request for no route is answered 404 from its headers: Fastify's not-found route would otherwise read and
 * parse a body first, for nothing. A registered client's page may read that 404 (CORS for its origin), so a path
 * the station lacks reaches the page as the station's error rather than a network failure.
 */
export function installRouteGuard(app: FastifyInstance, clients: Pick<ClientRegistry, 'allOrigins'>): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    await allowRegisteredOrigin(request, reply, clients);
    throw new NotFoundError('ERR_HTTP_NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?', 1)[0]}.`);
  });
}
