import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import {
  identityCompleteRequestSchema,
  identityStartRequestSchema,
  type IdentityCompleteRequest,
  type IdentityCompleteResponse,
  type IdentityStartResponse,
} from '../../core/schemas/identity-api.js';
import { StationError } from '../../core/errors/station-error.js';
import { InvalidInputError } from '../../core/errors/invalid-input-error.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import { parseZod } from '../validation/parse-zod.js';
import type { IdentityService } from './identity-service.js';

export interface IdentityRoutesDeps {
  identity: IdentityService;
  clients: Pick<ClientRegistry, 'verifySecret'>;
}

const paramsSchema = z.object({ client_id: clientIdSchema, method: z.string().regex(/^[a-z0-9-]{1,64}$/) });

/**
 * `POST /api/identity/<client_id>/<method>/start|complete` (docs/service-interface.md#identity-start-and-complete):
 * server to server, so any browser Origin is refused; the client_id in the body must be the one in the path and the
 * secret must match the one in the vault. complete answers `status: "OK"` with the person only on success.
 */
export function identityRoutes(deps: IdentityRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    const config = { browserAccess: 'none', errorFormat: 'json' } as const;

    app.post('/identity/:client_id/:method/start', { config }, async (request): Promise<IdentityStartResponse> => {
      const params = parseZod(paramsSchema, request.params, 'Invalid identity path');
      const body = parseZod(identityStartRequestSchema, request.body, 'Invalid identity start request');
      await authenticate(deps, params.client_id, body);
      return deps.identity.start(
        params.method,
        { idcode: body.idcode, phone: body.phone, country: body.country, lang: body.lang },
        { clientId: params.client_id, requester: params.client_id },
      );
    });

    app.post('/identity/:client_id/:method/complete', { config }, async (request): Promise<IdentityCompleteResponse> => {
      const params = parseZod(paramsSchema, request.params, 'Invalid identity path');
      const body = parseZod(identityCompleteRequestSchema, request.body, 'Invalid identity complete request');
      await authenticate(deps, params.client_id, body);
      const { session, evidence } = sessionAndEvidence(body);
      const result = await deps.identity.complete(params.method, session, params.client_id, body.timeout, evidence);
      return result === 'RUNNING' ? { status: 'RUNNING' } : { status: 'OK', ...result };
    });
  };
}

/**
 * Which field is the session: the deployed client's Web eID finish sends the start's token as `auth_token` and the
 * authentication token object as `token`; its ZealiD-type finish sends the provider's `code`; every other method
 * sends the session token as `token`.
 */
function sessionAndEvidence(body: IdentityCompleteRequest): { session: string; evidence?: Record<string, unknown> } {
  if (typeof body.token === 'string') return { session: body.token };
  if (body.token === undefined && body.code !== undefined) return { session: body.code };
  if (!body.auth_token) throw new InvalidInputError('auth_token (the session token from start) is required with an authentication token.', { auth_token: ['required'] });
  return { session: body.auth_token, evidence: { authToken: body.token } };
}

async function authenticate(deps: IdentityRoutesDeps, pathClientId: string, body: { client_id: string; secret: string }): Promise<void> {
  if (body.client_id !== pathClientId || !(await deps.clients.verifySecret(pathClientId, body.secret))) {
    throw new StationError('ERR_IDENTITY_CLIENT_UNAUTHENTICATED', 'Unknown client or wrong secret.', { status: 401 });
  }
}
