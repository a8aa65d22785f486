import type { HttpReply } from '../server/http-reply.js';
import type { HttpRequest } from '../server/http-request.js';
import type { HttpScope } from '../server/http-scope.js';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';
import type { ClientRegistry } from '../../clients/client-registry.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export interface OriginPolicy {
  stationOrigin(): string;
  clients: Pick<ClientRegistry, 'find' | 'allOrigins'>;
}

/**
 * Browser access control, from each route's `browserAccess` (route-config.ts). Never a wildcard: an allowed
 * cross origin is echoed back with `Vary: Origin`. Requests without an Origin header are not from a browser's
 * cross-site context and go on to the route's own authentication (client secret, client assertion, IP list).
 */
export function installOriginGuard(app: HttpScope, policy: OriginPolicy): void {
  // A preflight carries no body, so it cannot name its client: it is allowed for any registered origin, and the
  // real request is then checked against the client it names.
  app.options('*', async (request, reply) => {
    const origin = request.headers.origin;
    const allowed = origin !== undefined && (origin === policy.stationOrigin() || (await policy.clients.allOrigins()).has(origin));
    if (!allowed) throw new ForbiddenError('ERR_HTTP_ORIGIN_FORBIDDEN', 'This origin may not call the station.');
    allowOrigin(reply, origin);
    return reply
      .header('access-control-allow-methods', 'GET, POST')
      // The published browser client sends these three on every call; a preflight refusing one fails every flow.
      .header('access-control-allow-headers', 'content-type, accept, cache-control')
      .header('access-control-max-age', '600')
      .code(204)
      .send();
  });

  // Requests without an Origin (servers, the TSA's clients) are decided without a promise.
  app.addHook('preHandler', (request, reply) => {
    const origin = request.headers.origin;
    if (request.method === 'OPTIONS') return; // preflights are decided above
    if (origin !== undefined) return checkBrowserOrigin(request, reply, origin, policy);
    if (request.routeConfig.originRequired) {
      throw new ForbiddenError('ERR_HTTP_ORIGIN_REQUIRED', 'Only a web page of one of the client’s registered origins may call this endpoint (no Origin header).');
    }
  });
}

async function checkBrowserOrigin(request: HttpRequest, reply: HttpReply, origin: string, policy: OriginPolicy): Promise<void> {
  const access = request.routeConfig.browserAccess ?? (SAFE_METHODS.has(request.method) ? 'any-safe' : 'station');
  if (origin === policy.stationOrigin() && access !== 'none') return;
  if (access === 'any-safe') return;
  if (access === 'client' && (await originRegisteredByClient(request, origin, policy))) {
    allowOrigin(reply, origin);
    return;
  }
  throw new ForbiddenError('ERR_HTTP_ORIGIN_FORBIDDEN', `The origin ${origin} may not call this endpoint.`);
}

async function originRegisteredByClient(request: HttpRequest, origin: string, policy: OriginPolicy): Promise<boolean> {
  const clientId = readClientId(request.params) ?? readClientId(request.body);
  if (!clientId) return false;
  const client = await policy.clients.find(clientId);
  return client?.allowedOrigins.includes(origin) ?? false;
}

function readClientId(source: unknown): string | undefined {
  if (typeof source !== 'object' || source === null) return undefined;
  const value = (source as Record<string, unknown>).client_id;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Identity calls of the browser client are made with credentials, and browsers accept a credentialed answer only
 * when it names the exact origin and allows credentials; the origin is always echoed, never `*`.
 */
function allowOrigin(reply: HttpReply, origin: string): void {
  reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true').header('vary', 'Origin');
}
