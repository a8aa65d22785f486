import type { HttpRequest } from '../server/http-request.js';
import type { HttpScope } from '../server/http-scope.js';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';
import { UiSessionRequiredError } from '../ui-session-required-error.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export interface UiSessionPolicy {
  stationOrigin(): string;
  /** Whether the request carries a valid station UI credential (`Authorization: Bearer`). */
  isUiSession(request: HttpRequest): boolean;
}

/**
 * Routes that declare `requiresOwnOrigin` or `requiresUiSession` (route-config.ts) answer only the station's own
 * pages, decided before the body is even read. A change needs `Origin` equal to the station's origin; a read needs
 * that or, as browsers send no Origin on same-origin GETs, `Sec-Fetch-Site: same-origin`. A request without either
 * (curl, another local process) is refused even with a valid credential.
 */
export function installUiSessionGuard(app: HttpScope, policy: UiSessionPolicy): void {
  app.addHook('onRequest', (request) => {
    const config = request.routeConfig;
    if (!config.requiresOwnOrigin && !config.requiresUiSession) return;
    if (!fromOwnPage(request, policy.stationOrigin())) {
      throw new ForbiddenError('ERR_HTTP_ORIGIN_FORBIDDEN', 'Only the station’s own pages may call this endpoint (Origin must be the station’s address).');
    }
    if (config.requiresUiSession && !policy.isUiSession(request)) throw new UiSessionRequiredError();
  });
}

function fromOwnPage(request: HttpRequest, stationOrigin: string): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return origin === stationOrigin;
  return SAFE_METHODS.has(request.method) && request.headers['sec-fetch-site'] === 'same-origin';
}
