import type { HttpScope } from './server/http-scope.js';

/**
 * Headers every response carries. Pages that must be framed (the iframe helper) set their own
 * Content-Security-Policy with frame-ancestors from the client's origins; everything else refuses framing.
 */
export function installSecurityHeaders(app: HttpScope): void {
  app.addHook('onSend', (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
      reply.header('x-frame-options', 'DENY');
    }
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}
