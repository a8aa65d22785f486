import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { clientCreateRequestSchema, promptAnswerSchema, verifyRequestSchema, type Overview, type VerifyRequest } from '../../../core/schemas/admin-api.js';
import type { DocumentVerification } from '../../../core/schemas/verification-report.js';
import { clientIdSchema } from '../../../core/schemas/client-registration.js';
import { parseZod } from '../../validation/parse-zod.js';
import type { ClientRegistry } from '../../clients/client-registry.js';
import type { StationStateFeed } from '../../ui-state/station-state-feed.js';
import type { UiPromptBroker } from '../../prompts/ui-prompt-broker.js';
import type { AuditLog } from '../../audit/audit-log.js';

export interface AdminRouteDeps {
  clients: ClientRegistry;
  audit: AuditLog;
  /** Token descriptions as last known: the overview never waits on a token busy with a prompt. */
  feed: Pick<StationStateFeed, 'state'>;
  prompts: UiPromptBroker;
  /** The verify screen: the same verification as `signing-station verify` (src/station/verification). */
  verify: (request: VerifyRequest) => Promise<DocumentVerification>;
}

/** Base64 of a 36 MB document, with room for the JSON around it. */
const VERIFY_BODY_LIMIT = 50 * 1024 * 1024;

const clientParams = z.object({ clientId: clientIdSchema });
const promptParams = z.object({ id: z.string().uuid() });
const auditQuery = z.object({ limit: z.coerce.number().int().min(1).max(10_000).default(100) });

/** The station UI's API (/admin/api): overview, clients, and answers to the station's own prompts. */
export function adminRoutes(deps: AdminRouteDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'station' as const, requiresUiSession: true };

    app.get('/overview', { config }, async (): Promise<Overview> => {
      const { station, clients, tokens, readers, problems } = await deps.feed.state();
      return { station, clients, tokens, readers, problems };
    });

    app.get('/clients', { config }, async () => deps.clients.list());

    app.post('/clients', { config }, async (request, reply) => {
      const { registration, secret } = parseZod(clientCreateRequestSchema, request.body, 'Invalid client');
      const saved = await deps.clients.upsert(registration, secret === undefined ? undefined : Buffer.from(secret, 'utf8'));
      return reply.code(201).send(saved);
    });

    app.delete('/clients/:clientId', { config }, async (request, reply) => {
      const { clientId } = parseZod(clientParams, request.params, 'Invalid client id');
      await deps.clients.remove(clientId);
      return reply.code(204).send();
    });

    app.get('/audit', { config }, async (request) => {
      const { limit } = parseZod(auditQuery, request.query, 'Invalid audit query');
      return deps.audit.list(limit);
    });

    app.post('/verify', { config, bodyLimit: VERIFY_BODY_LIMIT }, async (request) => deps.verify(parseZod(verifyRequestSchema, request.body, 'Invalid file to verify')));

    app.get('/prompts', { config }, async () => deps.prompts.pending());

    app.post('/prompts/:id', { config }, async (request, reply) => {
      const { id } = parseZod(promptParams, request.params, 'Invalid prompt id');
      deps.prompts.answer(id, parseZod(promptAnswerSchema, request.body, 'Invalid answer'));
      return reply.code(204).send();
    });
  };
}
