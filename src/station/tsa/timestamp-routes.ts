import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../core/errors/forbidden-error.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import '../http/route-config.js';
import type { TimestampAuthority } from './timestamp-authority.js';
import { TsaClientAccess } from './tsa-client-access.js';
import type { TsaIpAllowlist } from './tsa-ip-allowlist.js';
import type { WithParams } from '../http/route-types.js';

/**
 * A TimeStampReq is ~100 bytes; 8 KiB leaves room for large nonces and extensions (which are rejected anyway)
 * while keeping a flood of big bodies cheap to refuse (413 before anything is parsed).
 */
export const TSA_BODY_LIMIT = 8 * 1024;
const REQUEST_TYPES = ['application/octet-stream', 'application/timestamp-query'];
const REPLY_TYPE = 'application/timestamp-reply';

export interface TimestampRoutesDeps {
  tsa: TimestampAuthority;
  clients: Pick<ClientRegistry, 'find'>;
  /** How long a client's allow list is reused before the registry is read again (TsaClientAccess); default 1 s. */
  clientCacheMs?: number;
}

/**
 * POST /timestamp/:client_id (mounted under /api): RFC 3161 over HTTP (docs/service-interface.md#timestamping).
 *
 * Access: the caller's address must be in the client's allowed IPs, checked before the body is read. The
 * address is the TCP peer's: X-Forwarded-For and Forwarded are never trusted, since the station listens on
 * loopback only and any local process could set them. Unknown client and unlisted caller: the same 403, by the
 * same path (TsaClientAccess). Every failure is answered as a TimeStampResp with a PKIStatus rejection (the
 * error format 'tsa'): request problems RFC 3161 can express (malformed or empty DER, bad algorithm, foreign
 * policy) with 200, refusals (403, 413, 415) and the station's own failures (500) with their HTTP status.
 */
export function timestampRoutes(deps: TimestampRoutesDeps): FastifyPluginAsync {
  const access = new TsaClientAccess(deps.clients, { cacheMs: deps.clientCacheMs ?? 1000 });

  const refusal = (request: FastifyRequest<WithParams<'client_id'>>, allowlist: TsaIpAllowlist): ForbiddenError | undefined => {
    if (allowlist.allows(request.socket.remoteAddress)) return undefined;
    return new ForbiddenError(
      'ERR_TSA_FORBIDDEN',
      `The address ${request.socket.remoteAddress ?? '(unknown)'} may not use timestamping as client "${request.params.client_id}": ` +
        'the client is not registered, or this address is not in its allowed IP addresses.',
    );
  };

  return async (app) => {
    // Timestamp requests log with the server's logger, not a child bound to each request's id: its per-request
    // lines are at debug, its failures are logged one line per kind (install-error-handler.ts), and making the
    // child (which passes its bindings through the log's redaction) was a visible share of a timestamp's own CPU.
    app.setChildLoggerFactory((logger) => logger);
    // Only the two RFC 3161 media types: the JSON and text parsers the server has elsewhere do not apply here,
    // so anything else is a 415 before the handler runs.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(REQUEST_TYPES, { parseAs: 'buffer', bodyLimit: TSA_BODY_LIMIT }, (_request, body, done) => done(null, body));

    app.post<WithParams<'client_id'>>(
      '/timestamp/:client_id',
      {
        bodyLimit: TSA_BODY_LIMIT,
        config: { errorFormat: 'tsa', browserAccess: 'none' },
        // A callback hook: with the client's allow list already read (the usual case) a timestamp request is
        // admitted without a promise. Known and unknown ids take the same path either way.
        onRequest: (request, _reply, done) => {
          const cached = access.cached(request.params.client_id);
          if (cached) return done(refusal(request, cached));
          access.allowlist(request.params.client_id).then((allowlist) => done(refusal(request, allowlist)), done);
        },
      },
      // A failure of the station itself (store, signer) goes to the error handler: a systemFailure rejection, 500.
      async (request, reply) => reply.type(REPLY_TYPE).send(await deps.tsa.respond(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0))),
    );
  };
}
