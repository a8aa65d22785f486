import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../core/errors/not-found-error.js';
import type { ClientRegistry } from '../../clients/client-registry.js';
import { allowRegisteredOrigin } from '../allow-registered-origin.js';

/**
 * A request for no route is answered 404 from its headers: Fastify's not-found route would otherwise read and
 * parse a body first, for nothing. A registered client's page may read that 404 (CORS for its origin), so a path
 * the station lacks reaches the page as the station's error rather than a network failure. A callback hook, not
 * an async one: every request on every route passes here, and a request for a route goes on without a promise.
 */
export function installRouteGuard(app: FastifyInstance, clients: Pick<ClientRegistry, 'allOrigins'>): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const notFound = new NotFoundError('ERR_HTTP_NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?', 1)[0]}.`);
    allowRegisteredOrigin(request, reply, clients).then(() => done(notFound), done);
  });
}
