import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

const ALWAYS: ReadonlyArray<readonly [string, string]> = [
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'no-referrer'],
  ['cross-origin-opener-policy', 'same-origin'],
];
const NOT_FRAMED_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Headers every response carries. Pages that must be framed (the iframe helper) set their own
 * Content-Security-Policy with frame-ancestors from the client's origins; everything else refuses framing.
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    for (const [name, value] of ALWAYS) reply.header(name, value);
    if (!reply.hasHeader('content-security-policy')) {
      reply.header('content-security-policy', NOT_FRAMED_CSP);
      reply.header('x-frame-options', 'DENY');
    }
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

/**
 * The same headers for a response its route writes itself (hijacked: no onSend hook runs for it), framing refused,
 * with the route's own Content-Security-Policy if it has one. Cache-Control is the route's to set.
 */
export function setSecurityHeaders(response: ServerResponse, contentSecurityPolicy = NOT_FRAMED_CSP): void {
  for (const [name, value] of ALWAYS) response.setHeader(name, value);
  response.setHeader('content-security-policy', contentSecurityPolicy);
  response.setHeader('x-frame-options', 'DENY');
}
