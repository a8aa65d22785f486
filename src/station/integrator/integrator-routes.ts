import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { StationError } from '../../core/errors/station-error.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { parseZod } from '../validation/parse-zod.js';
import type { IdentityForwarder } from './identity-forwarder.js';

export interface IntegratorRoutesDeps {
  clients: Pick<ClientRegistry, 'secret'>;
  forwarder: IdentityForwarder;
}

const paramsSchema = z.object({ client_id: clientIdSchema });
const browserBodySchema = z.object({ method: z.string().regex(/^[a-z0-9-]{1,64}$/, 'must be a method code') }).passthrough();

/**
 * The integrator-server role (docs/service-interface.md#the-integrator-server-side): the URLs that the browser client's
 * `apiEndpoints.identityStart / identityFinish` return, `POST /integrator/<client_id>/identity/start|finish`.
 * Called from the client's registered origins only (a request without Origin is refused: it would borrow the
 * secret with no page to answer for it); the body goes on with `client_id` and the secret from the vault
 * added (whatever the browser put there is replaced), and the service's answer comes back unchanged. The secret
 * is never in any response.
 */
export function integratorRoutes(deps: IntegratorRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    const config = { browserAccess: 'client', originRequired: true, errorFormat: 'json' } as const;
    const route = (step: 'start' | 'finish') =>
      app.post(`/:client_id/identity/${step}`, { config }, async (request, reply) => {
        const { client_id: clientId } = parseZod(paramsSchema, request.params, 'Invalid integrator path');
        const body = parseZod(browserBodySchema, request.body, 'Invalid identity request');
        const secret = await deps.clients.secret(clientId);
        if (!secret) {
          throw new StationError('ERR_INTEGRATOR_NO_SECRET', `No API secret is stored for client "${clientId}"; set one with signing-station clients update ${clientId} --secret-stdin.`, { status: 409 });
        }
        const forwarded = { ...body, client_id: clientId, secret: Buffer.from(secret).toString('utf8') };
        secret.fill(0);
        const answer = await deps.forwarder.forward(clientId, body.method, step === 'start' ? 'start' : 'complete', forwarded);
        return reply.code(answer.status).send(answer.body);
      });
    route('start');
    route('finish');
  };
}
