import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { parseZod } from '../validation/parse-zod.js';
import { readDecision, sendProviderPage } from '../http/sandbox-provider-page.js';
import type { IdentityService } from './identity-service.js';
import type { ProviderDecisions } from './redirect-provider-simulator.js';

const querySchema = z.object({
  client_id: clientIdSchema,
  redirect_uri: z.string().url(),
  response_type: z.literal('code').optional(),
  state: z.string().max(512).optional(),
  lang: z.string().max(8).optional(),
  method: z.string().regex(/^[a-z0-9-]{1,64}$/).optional(),
});

interface Visit {
  token: string;
  redirectUri: string;
  state: string | undefined;
}

const VISIT_LIFETIME_MS = 180_000;

/**
 * Redirect-based identification as the browser clients start it: `GET /oauth/start/<method>?client_id&redirect_uri
 * &response_type=code&state` (or `/oauth/authorize?...&method=`) opens an identification and shows the simulated
 * provider page; Approve or Deny goes back to the registered redirect URI with `code` (the identification token,
 * completed by the integrator's server at /api/identity/<client_id>/<method>/complete) or `error=access_denied`.
 */
export function redirectProviderRoutes(deps: { identity: IdentityService; decisions: ProviderDecisions; clients: Pick<ClientRegistry, 'find'> }): FastifyPluginAsync {
  return async (app) => {
    const visits = new Map<string, Visit>();
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));

    const visit = async (method: string | undefined, query: unknown, reply: FastifyReply): Promise<FastifyReply> => {
      const request = parseZod(querySchema, query, 'Invalid provider request');
      const code = method ?? request.method;
      if (!code) throw new InvalidInputError('The identification method is missing.', { method: ['required'] });
      const client = await deps.clients.find(request.client_id);
      if (!client?.redirectUris.includes(request.redirect_uri)) throw new InvalidInputError('redirect_uri is not registered for this client.', { redirect_uri: ['not registered'] });
      const started = await deps.identity.start(code, {}, { clientId: request.client_id, requester: request.client_id });
      const nonce = started.nonce!;
      visits.set(nonce, { token: started.token, redirectUri: request.redirect_uri, state: request.state });
      setTimeout(() => visits.delete(nonce), VISIT_LIFETIME_MS).unref();
      return sendProviderPage(reply, {
        title: `Sandbox provider: ${code}`,
        detail: `${request.client_id} asks to identify you with ${code}. Approve to identify as the sandbox person REDIRECT TESTPERSON.`,
        action: `/oauth/decision/${encodeURIComponent(nonce)}`,
        returnOrigin: new URL(request.redirect_uri).origin,
      });
    };

    app.get('/start/:method', async (request, reply) => visit((request.params as { method: string }).method, request.query, reply));
    app.get('/authorize', async (request, reply) => visit(undefined, request.query, reply));

    app.post('/decision/:nonce', async (request, reply) => {
      const { nonce } = request.params as { nonce: string };
      const found = visits.get(nonce);
      visits.delete(nonce);
      const approved = readDecision(request.body) === 'approve';
      if (!found || !deps.decisions.decide(nonce, approved)) throw new NotFoundError('ERR_IDENTITY_SESSION_NOT_FOUND', 'This provider page has expired or was answered already.');
      const back = new URL(found.redirectUri);
      if (approved) back.searchParams.set('code', found.token);
      else back.searchParams.set('error', 'access_denied');
      if (found.state !== undefined) back.searchParams.set('state', found.state);
      return reply.redirect(back.toString(), 303);
    });
  };
}
