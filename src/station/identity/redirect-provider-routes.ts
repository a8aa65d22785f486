import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { WithParams, WithQuery } from '../http/route-types.js';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { parseZod } from '../validation/parse-zod.js';
import { readDecision, sendFrameResultPage, sendProviderPage } from '../http/sandbox-provider-page.js';
import type { IdentityService } from './identity-service.js';
import type { ProviderDecisions } from './redirect-provider-simulator.js';
import { IFRAME_IDENTIFICATION_METHODS } from './iframe-url-routes.js';

const methodSchema = z.string().regex(/^[a-z0-9-]{1,64}$/);
const redirectQuerySchema = z.object({
  client_id: clientIdSchema,
  redirect_uri: z.string().url(),
  response_type: z.literal('code').optional(),
  state: z.string().max(512).optional(),
  lang: z.string().max(8).optional(),
  method: methodSchema.optional(),
});
const frameQuerySchema = z.object({ client_id: clientIdSchema, parent_origin: z.string().url(), lang: z.string().max(8).optional() });

/** Where the answer goes: back to a redirect URI (navigation), or posted to the page framing the provider. */
type Return = { redirectUri: string; state: string | undefined } | { parentOrigin: string };

interface Visit {
  token: string;
  back: Return;
}

const VISIT_LIFETIME_MS = 180_000;

/**
 * The simulated provider page of redirect-based and iframe (ZealiD-type) identification:
 *  - `GET /oauth/start/<method>?client_id&redirect_uri&response_type=code&state` (or `/oauth/authorize?...&method=`)
 *    opens an identification and shows the page; the answer goes back to the registered redirect URI with `code`
 *    (the identification token, completed by the integrator's server at /api/identity/<client_id>/<method>/complete)
 *    or `error=access_denied`;
 *  - `GET /oauth/frame/<method>?client_id&parent_origin` is the same page inside the client's page (framed by that
 *    registered origin only); the answer is posted to it as an address carrying `code` or `error`.
 */
export function redirectProviderRoutes(deps: { identity: IdentityService; decisions: ProviderDecisions; clients: Pick<ClientRegistry, 'find'> }): FastifyPluginAsync {
  return async (app) => {
    const visits = new Map<string, Visit>();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));

    const open = async (reply: FastifyReply, code: string, clientId: string, back: Return): Promise<FastifyReply> => {
      const started = await deps.identity.start(code, {}, { clientId, requester: 'parentOrigin' in back ? back.parentOrigin : clientId });
      const nonce = started.nonce!;
      visits.set(nonce, { token: started.token, back });
      setTimeout(() => visits.delete(nonce), VISIT_LIFETIME_MS).unref();
      return sendProviderPage(reply, {
        title: `Sandbox provider: ${code}`,
        detail: `${clientId} asks to identify you with ${code}. Approve to identify as the sandbox person REDIRECT TESTPERSON.`,
        action: `/oauth/decision/${encodeURIComponent(nonce)}`,
        ...('parentOrigin' in back ? { framedBy: back.parentOrigin } : { returnOrigin: new URL(back.redirectUri).origin }),
      });
    };

    const redirected = async (method: string | undefined, query: unknown, reply: FastifyReply): Promise<FastifyReply> => {
      const request = parseZod(redirectQuerySchema, query, 'Invalid provider request');
      const code = method ?? request.method;
      if (!code) throw new InvalidInputError('The identification method is missing.', { method: ['required'] });
      const client = await deps.clients.find(request.client_id);
      if (!client?.redirectUris.includes(request.redirect_uri)) throw new InvalidInputError('redirect_uri is not registered for this client.', { redirect_uri: ['not registered'] });
      return open(reply, code, request.client_id, { redirectUri: request.redirect_uri, state: request.state });
    };

    app.get<WithParams<'method'> & WithQuery>('/start/:method', async (request, reply) => redirected(request.params.method, request.query, reply));
    app.get('/authorize', async (request, reply) => redirected(undefined, request.query, reply));
    app.get<WithParams<'method'>>('/frame/:method', async (request, reply) => {
      const method = parseZod(z.enum(IFRAME_IDENTIFICATION_METHODS), request.params.method, 'Not an iframe identification method');
      const query = parseZod(frameQuerySchema, request.query, 'Invalid provider request');
      const parentOrigin = new URL(query.parent_origin).origin;
      const client = await deps.clients.find(query.client_id);
      if (!client?.allowedOrigins.includes(parentOrigin)) throw new InvalidInputError('parent_origin is not an origin registered for this client.', { parent_origin: ['not registered'] });
      return open(reply, method, query.client_id, { parentOrigin });
    });

    app.post<WithParams<'nonce'>>('/decision/:nonce', async (request, reply) => {
      const { nonce } = request.params;
      const found = visits.get(nonce);
      visits.delete(nonce);
      const approved = readDecision(request.body) === 'approve';
      if (!found || !deps.decisions.decide(nonce, approved)) throw new NotFoundError('ERR_IDENTITY_SESSION_NOT_FOUND', 'This provider page has expired or was answered already.');
      const back = new URL('parentOrigin' in found.back ? found.back.parentOrigin : found.back.redirectUri);
      if (approved) back.searchParams.set('code', found.token);
      else back.searchParams.set('error', 'access_denied');
      if ('parentOrigin' in found.back) return sendFrameResultPage(reply, { parentOrigin: found.back.parentOrigin, message: back.toString() });
      if (found.back.state !== undefined) back.searchParams.set('state', found.back.state);
      return reply.redirect(back.toString(), 303);
    });
  };
}
