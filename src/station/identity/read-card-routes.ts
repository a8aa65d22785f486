import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { parseZod } from '../validation/parse-zod.js';
import type { IdentityService } from './identity-service.js';
import { ID_CARD_LOGIN_METHODS } from './card-login.js';

const paramsSchema = z.object({ client_id: clientIdSchema, method: z.enum(ID_CARD_LOGIN_METHODS) });

/**
 * `GET /api/identity/<client_id>/<method>/read-card`: the browser clients' `readCard` call (credentialed, from the
 * client's registered origins only). It starts the card login, whose prompts name the requesting origin, and
 * answers `{status:"OK", token}`; the integrator's server then completes that token through the identity API.
 * `GET /api/identity/<client_id>/read-card`, the hosted service's shape, is the Estonian card login.
 */
export function readCardRoutes(deps: { identity: IdentityService }): FastifyPluginAsync {
  return async (app) => {
    const config = { browserAccess: 'client', originRequired: true } as const;
    const readCard = async (clientId: string, method: (typeof ID_CARD_LOGIN_METHODS)[number], origin: string | undefined) => {
      const started = await deps.identity.start(method, {}, { clientId, requester: origin ?? clientId });
      return { status: 'OK', token: started.token };
    };
    app.get('/identity/:client_id/:method/read-card', { config }, async (request) => {
      const params = parseZod(paramsSchema, request.params, 'Invalid read-card path');
      return readCard(params.client_id, params.method, request.headers.origin);
    });
    // The path shape integrators configure for the hosted service's readCard (no method in it): its Estonian login.
    app.get('/identity/:client_id/read-card', { config }, async (request) => {
      const params = parseZod(paramsSchema.pick({ client_id: true }), request.params, 'Invalid read-card path');
      return readCard(params.client_id, 'ee-id-login', request.headers.origin);
    });
  };
}
