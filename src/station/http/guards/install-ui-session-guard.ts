import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';
import { UiSessionRequiredError } from '../ui-session-required-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export interface UiSessionPolicy {
  /** Whether an Origin is one of the station's own (its address, or `localhost` with its port). */
  isOwnOrigin(origin: string): boolean;
  /** Whether the request carries a valid station UI credential (`Authorization: Bearer`). */
  isUiSession(request: FastifyRequest): boolean;
}

/**
 * Routes that declare `requiresOwnOrigin` or `requiresUiSession` (route-config.ts) answer only the station's own
 * pages, decided before the body is even read. A change needs `Origin` equal to the station's origin; a read needs
 * that or, as browsers send no Origin on same-origin GETs, `Sec-Fetch-Site: same-origin`. A request without either
 * (curl, another local process) is refused even with a valid credential.
 */
export function installUiSessionGuard(app: FastifyInstance, policy: UiSessionPolicy): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config;
    if (!config.requiresOwnOrigin && !config.requiresUiSession) return done();
    if (!fromOwnPage(request, policy)) {
      return done(new ForbiddenError('ERR_HTTP_ORIGIN_FORBIDDEN', 'Only the station’s own pages may call this endpoint (Origin must be the station’s address).'));
    }
    done(config.requiresUiSession && !policy.isUiSession(request) ? new UiSessionRequiredError() : undefined);
  });
}

function fromOwnPage(request: FastifyRequest, policy: UiSessionPolicy): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return policy.isOwnOrigin(origin);
  return SAFE_METHODS.has(request.method) && request.headers['sec-fetch-site'] === 'same-origin';
}
