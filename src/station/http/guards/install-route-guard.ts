import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../core/errors/not-found-error.js';

/**
 * A request for no route is answered 404 from its headers: Fastify's not-found route would otherwise read and
 * parse a body first, for nothing.
 */
export function installRouteGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    done(request.is404 ? new NotFoundError('ERR_HTTP_NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?', 1)[0]}.`) : undefined);
  });
}
