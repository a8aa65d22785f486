import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { WithParams } from '../http/route-types.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { hashSigningMethodSchema } from '../../core/schemas/hash-signing-api.js';
import {
  WEB_EID_LOGIN_METHOD,
  iframeAuthTokenCallSchema,
  type IframeAuthTokenAnswer,
  iframeCertificateCallSchema,
  iframeSignatureCallSchema,
  type IframeCertificateAnswer,
  type IframeSignatureAnswer,
} from '../../core/schemas/iframe-protocol.js';
import { StationError } from '../../core/errors/station-error.js';
import { parseZod } from '../validation/parse-zod.js';
import { packageRoot } from '../files/package-root.js';
import { frameCallSignal } from './frame-call-signal.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { SigningSessions } from '../sessions/signing-sessions.js';
import type { FrameTickets } from './frame-tickets.js';
import type { IframeHelperService } from './iframe-helper-service.js';
import { iframePageCsp, renderIframePage } from './iframe-page.js';

export interface IframeHelperRouteDeps {
  clients: Pick<ClientRegistry, 'find'>;
  sessions: Pick<SigningSessions, 'get'>;
  tickets: FrameTickets;
  service: IframeHelperService;
}

const pageParams = z.object({ client_id: clientIdSchema, method: z.union([hashSigningMethodSchema, z.literal(WEB_EID_LOGIN_METHOD)]) });
const embedderParams = z.object({ client_id: clientIdSchema });
const pageQuery = z.object({ doc_id: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'is not a document id').optional().or(z.literal('')) });

const ASSETS = {
  'iframe-helper.js': 'text/javascript; charset=utf-8',
  'iframe-helper.css': 'text/css; charset=utf-8',
} as const;

/**
 * The iframe certificate helper (docs/iframe-helper.md, docs/service-interface.md#iframe-page): the page web
 * pages embed, its script and style, and the two calls the page makes to its own station. The calls accept the
 * station's own origin only (the framed page), each bound to the ticket the page was served with.
 */
export function iframeHelperRoutes(deps: IframeHelperRouteDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.get('/os-broker/:client_id/:method', async (request, reply) => {
      const { client_id: clientId, method } = parseZod(pageParams, request.params, 'Unknown iframe method');
      const { doc_id: docId } = parseZod(pageQuery, request.query, 'Invalid iframe query');
      const client = await deps.clients.find(clientId);
      if (!client) throw new StationError('ERR_IFRAME_CLIENT_UNKNOWN', `No client ${clientId} is registered.`, { status: 404 });
      // A document of another client (or none at all) is refused before anything is served.
      if (docId) await deps.sessions.get(clientId, docId);
      const frame = deps.tickets.issue({ clientId, method, docId: docId || undefined, allowedOrigins: client.allowedOrigins }, request.headers.referer);
      return reply.type('text/html; charset=utf-8').header('content-security-policy', iframePageCsp(frame)).send(renderIframePage(frame));
    });

    app.get<WithParams<'name'>>('/assets/:name', async (request, reply) => {
      const { name } = request.params;
      if (!(name in ASSETS)) throw new StationError('ERR_HTTP_NOT_FOUND', 'No such asset.', { status: 404 });
      const body = await readFile(join(packageRoot(), 'out', 'iframe', name)).catch(() => {
        throw new StationError('ERR_IFRAME_NOT_BUILT', 'The iframe helper is not built: run `npm run build`.', { status: 503 });
      });
      return reply.type(ASSETS[name as keyof typeof ASSETS]).send(body);
    });

    // Whether the asking page's origin may embed this client's helper, readable by any page: a browser client asks
    // before framing, so an unregistered origin hears it at once instead of waiting for a frame its CSP blocks. It
    // tells a page only about its own origin (the browser sets Origin), and nothing else about the client.
    app.get('/api/embedder/:client_id', async (request, reply) => {
      const { client_id: clientId } = parseZod(embedderParams, request.params, 'Invalid client id');
      const origin = request.headers.origin;
      const client = await deps.clients.find(clientId);
      // Browsers leave Origin off a same-origin GET: then the page is one of the station's own (the window), and
      // whether it may embed the helper is left to the frame's own check (null), never answered "not registered".
      if (!origin) return { registered: null };
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
      return { registered: Boolean(client?.allowedOrigins.includes(origin)) };
    });

    const own = { config: { browserAccess: 'station', requiresOwnOrigin: true } } as const;

    app.post('/api/certificate', own, async (request, reply): Promise<IframeCertificateAnswer> => {
      const call = parseZod(iframeCertificateCallSchema, request.body, 'Invalid certificate request');
      return { certificate: await deps.service.certificate(call.ticket, call.embeddingOrigin, frameCallSignal(reply, call.timeoutMs)) };
    });

    app.post('/api/auth-token', own, async (request, reply): Promise<IframeAuthTokenAnswer> => {
      const call = parseZod(iframeAuthTokenCallSchema, request.body, 'Invalid authentication token request');
      return { token: await deps.service.authToken(call.ticket, call.embeddingOrigin, call.nonce, frameCallSignal(reply, call.timeoutMs)) };
    });

    app.post('/api/signature', own, async (request, reply): Promise<IframeSignatureAnswer> => {
      const call = parseZod(iframeSignatureCallSchema, request.body, 'Invalid signature request');
      return { signatures: [await deps.service.signature(call, frameCallSignal(reply, call.timeoutMs))] };
    });
  };
}
