import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';

/**
 * DNS rebinding defence: a page on evil.example that rebinds its name to 127.0.0.1 still sends
 * `Host: evil.example`. Only the station's own loopback names with its real port are served.
 */
export function installHostGuard(app: FastifyInstance, allowedHosts: () => ReadonlySet<string>): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const host = request.headers.host?.toLowerCase();
    done(!host || !allowedHosts().has(host) ? new ForbiddenError('ERR_HTTP_HOST_FORBIDDEN', 'This Host header is not the station’s own address.') : undefined);
  });
}
