import type { Logger } from 'pino';
import { HttpApp } from './server/http-app.js';
import type { HttpRequest } from './server/http-request.js';
import { installErrorHandler } from './install-error-handler.js';
import { installHostGuard } from './guards/install-host-guard.js';
import { installOriginGuard, type OriginPolicy } from './guards/install-origin-guard.js';
import { installSecurityHeaders } from './install-security-headers.js';
import { installUiSessionGuard } from './guards/install-ui-session-guard.js';

export interface HttpServerOptions extends OriginPolicy {
  logger: Logger;
  allowedHosts: () => ReadonlySet<string>;
  /** Whether the request carries a valid station UI credential (`Authorization: Bearer`). */
  isUiSession: (request: HttpRequest) => boolean;
}

/** JSON bodies above this are refused with 413 unless a route sets its own (larger or smaller) bodyLimit. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The HTTP server with the station's guards; routes are registered by the composition root. */
export function createHttpServer(options: HttpServerOptions): HttpApp {
  const app = new HttpApp({ logger: options.logger, bodyLimit: DEFAULT_BODY_LIMIT });
  installErrorHandler(app);
  installHostGuard(app, options.allowedHosts);
  installUiSessionGuard(app, options);
  installOriginGuard(app, options);
  installSecurityHeaders(app);
  return app;
}
