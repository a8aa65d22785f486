import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import './route-config.js';
import { BodyBudget } from './body-budget.js';
import { DebugRequestLines } from './debug-request-lines.js';
import { installErrorHandler } from './install-error-handler.js';
import { installGracefulClose } from './install-graceful-close.js';
import { installBodyAdmission } from './guards/install-body-admission.js';
import { installHostGuard } from './guards/install-host-guard.js';
import { installOriginGuard, type OriginPolicy } from './guards/install-origin-guard.js';
import { installRouteGuard } from './guards/install-route-guard.js';
import { installSecurityHeaders } from './install-security-headers.js';
import { installUiSessionGuard } from './guards/install-ui-session-guard.js';

export interface HttpServerOptions extends Pick<OriginPolicy, 'clients'> {
  logger: Logger;
  /** The Host values the station answers (`127.0.0.1:PORT`, `localhost:PORT`); its own origins are these over http. */
  allowedHosts: () => ReadonlySet<string>;
  /** Whether the request carries a valid station UI credential (`Authorization: Bearer`). */
  isUiSession: (request: FastifyRequest) => boolean;
  /** Request-body bytes held at once over all requests (BodyBudget); default BODY_MEMORY_CAP. */
  bodyMemoryCap?: number;
}

/** JSON bodies above this are refused with 413 unless a route sets its own (larger or smaller) bodyLimit. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Room for one large body read whole (a window's desk upload, a verification) and some small ones beside it: a
 * parsed JSON body costs about three times its size while it is read, so this keeps concurrent uploads to a few
 * hundred megabytes. prepare-files-for-signing streams its body and counts only its window here.
 */
export const BODY_MEMORY_CAP = 96 * 1024 * 1024;

/** Idle keep-alive connections stay open this long: past a browser's pause between calls and a load balancer's 60 s. */
const KEEP_ALIVE_MS = 72_000;

/**
 * Routes validate their bodies with the zod schemas of src/core and reply with plain JSON, so Fastify's JSON schema
 * compilers are never loaded; a route that declares a Fastify schema anyway fails when it is registered, not
 * silently unvalidated.
 */
function refuseJsonSchemas(): never {
  throw new TypeError('Station routes validate with zod (src/core/schemas); Fastify JSON schemas are not compiled.');
}
const NO_JSON_SCHEMA_COMPILERS = { buildValidator: () => refuseJsonSchemas, buildSerializer: () => refuseJsonSchemas };

/**
 * The Fastify instance with the station's hooks, before any route (docs/http-layer.md). Every check that the
 * headers can decide runs in onRequest, before a byte of the body is read: Host, route, UI credential, Origin,
 * Content-Length against the route's limit and the body budget, in that order.
 */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    // pino 10's Logger is a superset of what Fastify declares; the cast only bridges the two declarations.
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: false,
    keepAliveTimeout: KEEP_ALIVE_MS,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    // A JSON body is merged into objects here and there: a `__proto__` or `constructor.prototype` key is refused.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    schemaController: { compilersFactory: NO_JSON_SCHEMA_COMPILERS },
    logController: new DebugRequestLines(),
  });
  const isOwnOrigin = (origin: string): boolean => origin.startsWith('http://') && options.allowedHosts().has(origin.slice('http://'.length));
  installErrorHandler(app);
  installHostGuard(app, options.allowedHosts);
  installRouteGuard(app, options.clients);
  installUiSessionGuard(app, { isOwnOrigin, isUiSession: options.isUiSession });
  installOriginGuard(app, { isOwnOrigin, clients: options.clients });
  installBodyAdmission(app, new BodyBudget(options.bodyMemoryCap ?? BODY_MEMORY_CAP));
  installSecurityHeaders(app);
  installGracefulClose(app);
  return app;
}
