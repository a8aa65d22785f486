import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { parseZod } from '../validation/parse-zod.js';
import type { IdentityService } from './identity-service.js';

/** The identification methods whose provider page the browser client frames (ZealiD-type), simulated in sandbox mode. */
export const IFRAME_IDENTIFICATION_METHODS = ['zealid-login'] as const;

const paramsSchema = z.object({ client_id: clientIdSchema });

/**
 * `GET /api/identity/<client_id>/zealid/get_iframe_url` (the browser clients' zealId module, from the client's
 * registered origins only): answers `{status:"OK", url}`, the provider page to frame. The page is the station's
 * simulated provider, framed by the requesting origin only and posting its answer to it; refused in production.
 */
export function iframeUrlRoutes(deps: { identity: IdentityService; baseUrl: () => string }): FastifyPluginAsync {
  return async (app) => {
    const config = { browserAccess: 'client', originRequired: true } as const;
    app.get('/identity/:client_id/zealid/get_iframe_url', { config }, async (request) => {
      const { client_id: clientId } = parseZod(paramsSchema, request.params, 'Invalid iframe URL path');
      const [method] = IFRAME_IDENTIFICATION_METHODS;
      deps.identity.assertUsable(method);
      const query = new URLSearchParams({ client_id: clientId, parent_origin: request.headers.origin! });
      return { status: 'OK', url: `${deps.baseUrl()}/oauth/frame/${method}?${query}` };
    });
  };
}
