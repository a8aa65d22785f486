import type { HttpScope } from '../server/http-scope.js';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';

/**
 * DNS rebinding defence: a page on evil.example that rebinds its name to 127.0.0.1 still sends
 * `Host: evil.example`. Only the station's own loopback names with its real port are served.
 */
export function installHostGuard(app: HttpScope, allowedHosts: () => ReadonlySet<string>): void {
  app.addHook('onRequest', (request) => {
    const host = request.headers.host?.toLowerCase();
    if (!host || !allowedHosts().has(host)) throw new ForbiddenError('ERR_HTTP_HOST_FORBIDDEN', 'This Host header is not the station’s own address.');
  });
}
