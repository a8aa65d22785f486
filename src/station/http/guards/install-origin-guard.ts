import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';
import type { ClientRegistry } from '../../clients/client-registry.js';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export interface OriginPolicy {
  /** Whether an Origin is one of the station's own (its address, or `localhost` with its port). */
  isOwnOrigin(origin: string): boolean;
  clients: Pick<ClientRegistry, 'find' | 'allOrigins'>;
}

type Decision = 'allowed' | 'refused' | 'needs-body';

/**
 * Browser access control, from each route's `browserAccess` (route-config.ts). Never a wildcard: an allowed
 * cross origin is echoed back with `Vary: Origin`. Requests without an Origin header are not from a browser's
 * cross-site context and go on to the route's own authentication (client secret, client assertion, IP list).
 *
 * Decided from the headers (onRequest) whenever they suffice: only an origin that some client registered, calling
 * a 'client' route that names its client in the body, waits for the body (preHandler) to be checked against it.
 */
export function installOriginGuard(app: FastifyInstance, policy: OriginPolicy): void {
  // A preflight carries no body, so it cannot name its client: it is allowed for any registered origin, and the
  // real request is then checked against the client it names.
  app.options('*', async (request, reply) => {
    const origin = request.headers.origin;
    const allowed = origin !== undefined && (policy.isOwnOrigin(origin) || (await policy.clients.allOrigins()).has(origin));
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

  const refused = (origin: string): ForbiddenError => new ForbiddenError('ERR_HTTP_ORIGIN_FORBIDDEN', `The origin ${origin} may not call this endpoint.`);

  // Callback hooks: a request without an Origin (servers, the TSA's clients) is decided without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const origin = request.headers.origin;
    if (request.method === 'OPTIONS') return done(); // preflights are decided above
    if (origin === undefined) {
      return done(
        request.routeOptions.config.originRequired
          ? new ForbiddenError('ERR_HTTP_ORIGIN_REQUIRED', 'Only a web page of one of the client’s registered origins may call this endpoint (no Origin header).')
          : undefined,
      );
    }
    decide(request, reply, origin, readClientId(request.params), policy).then((decision) => done(decision === 'refused' ? refused(origin) : undefined), done);
  });

  // Only a 'client' route that names its client in the body (not in the path) waits for the body to decide, so
  // only such routes get this preHandler: every other route skips Fastify's preHandler step altogether.
  const checkClientInBody: preHandlerHookHandler = (request, reply, done) => {
    const origin = request.headers.origin;
    if (origin === undefined || readClientId(request.params) !== undefined) return done();
    decide(request, reply, origin, readClientId(request.body), policy).then((decision) => done(decision === 'allowed' ? undefined : refused(origin)), done);
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.browserAccess === 'client') route.preHandler = [checkClientInBody, ...[route.preHandler ?? []].flat()];
  });
}

async function decide(request: FastifyRequest, reply: FastifyReply, origin: string, clientId: string | undefined, policy: OriginPolicy): Promise<Decision> {
  const access = request.routeOptions.config.browserAccess ?? (SAFE_METHODS.has(request.method) ? 'any-safe' : 'station');
  if (policy.isOwnOrigin(origin) && access !== 'none') return 'allowed';
  if (access === 'any-safe') return 'allowed';
  if (access !== 'client') return 'refused';
  if (clientId === undefined) return (await policy.clients.allOrigins()).has(origin) ? 'needs-body' : 'refused';
  const client = await policy.clients.find(clientId);
  if (!client?.allowedOrigins.includes(origin)) return 'refused';
  allowOrigin(reply, origin);
  return 'allowed';
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
function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin).header('access-control-allow-credentials', 'true').header('vary', 'Origin');
}
