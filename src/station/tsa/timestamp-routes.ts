import type { HttpRequest } from '../http/server/http-request.js';
import type { HttpPlugin } from '../http/server/http-scope.js';
import { ForbiddenError } from '../../core/errors/forbidden-error.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import '../http/route-config.js';
import { TimestampAuthority } from './timestamp-authority.js';
import { TsaIpAllowlist } from './tsa-ip-allowlist.js';

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
  /**
   * How long a client's allow list is reused before the registry is read again. Reading it costs two store
   * queries, about as much CPU as the rest of the request without the signature. Default 1 s: a removed
   * address stops working within a second.
   */
  clientCacheMs?: number;
}

interface Access {
  clientId: string;
  allowlist: TsaIpAllowlist;
}

/**
 * POST /timestamp/:client_id (mounted under /api): RFC 3161 over HTTP (docs/service-interface.md#timestamping).
 *
 * Access: the caller's address must be in the client's allowed IPs, checked before the body is read. The
 * address is the TCP peer's: X-Forwarded-For and Forwarded are never trusted, since the station listens on
 * loopback only and any local process could set them. Unknown client and unlisted caller: the same JSON 403.
 * Request problems RFC 3161 can express (malformed or empty DER, bad algorithm, foreign policy) are answered
 * with a PKIStatus rejection; transport problems (wrong Content-Type 415, oversize body 413) with JSON.
 */
export function timestampRoutes(deps: TimestampRoutesDeps): HttpPlugin {
  const cacheMs = deps.clientCacheMs ?? 1000;
  // Registered clients only (an unknown id is looked up every time), so the map is bounded by the registry.
  const cache = new Map<string, { expires: number; access: Promise<Access | undefined> }>();
  const accessOf = (clientId: string): Promise<Access | undefined> => {
    const now = performance.now();
    const cached = cache.get(clientId);
    if (cached && cached.expires > now) return cached.access;
    const access = deps.clients.find(clientId).then((client) => (client ? { clientId, allowlist: new TsaIpAllowlist(client.allowedIps) } : undefined));
    cache.set(clientId, { expires: now + cacheMs, access });
    const forget = (): void => {
      if (cache.get(clientId)?.access === access) cache.delete(clientId);
    };
    access.then((found) => found ?? forget(), forget);
    return access;
  };

  const authorize = async (request: HttpRequest<'client_id'>): Promise<void> => {
    const clientId = request.params.client_id;
    const access = await accessOf(clientId);
    // An unknown client and a known one called from a wrong address get the same answer, so the endpoint cannot
    // be used to find out which client ids exist.
    if (!access || !access.allowlist.allows(request.socket.remoteAddress)) {
      throw new ForbiddenError(
        'ERR_TSA_FORBIDDEN',
        `The address ${request.socket.remoteAddress ?? '(unknown)'} may not use timestamping as client "${clientId}": ` +
          'the client is not registered, or this address is not in its allowed IP addresses.',
      );
    }
  };

  return async (app) => {
    // Only the two RFC 3161 media types: the JSON and text parsers the server has elsewhere do not apply here,
    // so anything else is a 415 before the handler runs.
    app.removeAllBodyParsers();
    app.addBodyParser(REQUEST_TYPES, { limit: TSA_BODY_LIMIT });

    app.post(
      '/timestamp/:client_id',
      { bodyLimit: TSA_BODY_LIMIT, config: { errorFormat: 'tsa', browserAccess: 'none' }, onRequest: authorize },
      async (request, reply) => {
        let response: Buffer;
        try {
          response = await deps.tsa.respond(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
        } catch (error) {
          request.log.error({ err: error }, 'timestamp issuance failed');
          return reply.code(500).type(REPLY_TYPE).send(TimestampAuthority.systemFailure());
        }
        return reply.type(REPLY_TYPE).send(response);
      },
    );
  };
}
