import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { docIdSchema } from '../../core/schemas/signing-session-api.js';
import { parseZod } from '../validation/parse-zod.js';
import type { RedirectSigningSimulator } from './redirect-signing-simulator.js';

/** The method code of ZealiD signing in the published browser client's method list. */
export const ZEALID_SIGNING_METHOD = 'zealid-signature';

const querySchema = z.object({ client_id: clientIdSchema, doc_id: docIdSchema });

/**
 * `GET /zealid/signature/start?client_id&doc_id`: where the browser clients' zealIdSignature module sends the user
 * (no start-signing call first). In sandbox mode it opens the simulated provider page, which signs with the test CA
 * on Approve and goes back to the client's redirect URI; refused in production.
 */
export function zealIdSigningRoutes(redirect: Pick<RedirectSigningSimulator, 'open'>): FastifyPluginAsync {
  return async (app) => {
    app.get('/zealid/signature/start', async (request, reply) => {
      const query = parseZod(querySchema, request.query, 'Invalid ZealiD signing request');
      return reply.redirect(await redirect.open(query.client_id, query.doc_id, ZEALID_SIGNING_METHOD), 303);
    });
  };
}
