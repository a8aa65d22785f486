import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import './route-config.js';
import { DebugRequestLines } from './debug-request-lines.js';
import { installErrorHandler } from './install-error-handler.js';
import { installHostGuard } from './guards/install-host-guard.js';
import { installOriginGuard, type OriginPolicy } from './guards/install-origin-guard.js';
import { installSecurityHeaders } from './install-security-headers.js';
import { installUiSessionGuard } from './guards/install-ui-session-guard.js';

export interface HttpServerOptions extends OriginPolicy {
  logger: Logger;
  allowedHosts: () => ReadonlySet<string>;
  /** Whether the request carries a valid station UI credential (`Authorization: Bearer`). */
  isUiSession: (request: FastifyRequest) => boolean;
}

/** JSON bodies above this are refused with 413 unless a route sets its own (larger or smaller) bodyLimit. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Routes validate their bodies with the zod schemas of src/core and reply with plain JSON, so Fastify's JSON schema
 * compilers (ajv and fast-json-stringify, a fifth of the bundled start) are never loaded; a route that declares a
 * Fastify schema anyway fails when it is registered, not silently unvalidated.
 */
function refuseJsonSchemas(): never {
  throw new TypeError('Station routes validate with zod (src/core/schemas); Fastify JSON schemas are not compiled.');
}
const NO_JSON_SCHEMA_COMPILERS = { buildValidator: () => refuseJsonSchemas, buildSerializer: () => refuseJsonSchemas };

/** The Fastify instance with the station's guards; routes are registered by the composition root. */
export function createHttpServer(options: HttpServerOptions): FastifyInstance {
  const app = Fastify({
    // pino 10's Logger is a superset of what Fastify declares; the cast only bridges the two declarations.
    loggerInstance: options.logger as FastifyBaseLogger,
    bodyLimit: DEFAULT_BODY_LIMIT,
    trustProxy: false,
    return503OnClosing: true,
    forceCloseConnections: true,
    schemaController: { compilersFactory: NO_JSON_SCHEMA_COMPILERS },
    logController: new DebugRequestLines(),
  });
  installErrorHandler(app);
  installHostGuard(app, options.allowedHosts);
  installUiSessionGuard(app, options);
  installOriginGuard(app, options);
  installSecurityHeaders(app);
  return app;
}
