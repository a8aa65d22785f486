import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  clientSecretSchema,
  downloadRequestSchema,
  prepareFilesRequestSchema,
  reasonAcceptRequestSchema,
  sessionRequestSchema,
} from '../../core/schemas/signing-session-api.js';
import { parseZod } from '../validation/parse-zod.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { SigningSessions } from './signing-sessions.js';
import { ClientAuthenticationError } from './signing-session-errors.js';
import { assertClientRegistered } from './assert-client-registered.js';
import { signedFileAnswer } from './signed-file-answer.js';

/** Base64 inflates by 4/3: this admits about 48 MiB of documents per prepare call. */
export const PREPARE_BODY_LIMIT = 64 * 1024 * 1024;

export interface SigningSessionRouteDeps {
  sessions: SigningSessions;
  clients: Pick<ClientRegistry, 'find' | 'verifySecret'>;
}

/**
 * The signing-session side of the service (docs/service-interface.md#signing-sessions): prepare and download are
 * server-to-server calls authenticated by the client's secret, which never belongs in a browser; status and reason
 * acceptance are called from the integrator's pages and admitted for the origins that client registered.
 */
export function signingSessionRoutes(deps: SigningSessionRouteDeps): FastifyPluginAsync {
  const authenticate = async (clientId: string, secret: string): Promise<void> => {
    if (!(await deps.clients.verifySecret(clientId, secret))) throw new ClientAuthenticationError();
  };

  return async (app: FastifyInstance) => {
    app.post('/prepare-files-for-signing', { bodyLimit: PREPARE_BODY_LIMIT, config: { browserAccess: 'none' } }, async (request) => {
      // The secret first: a wrong one costs no validation of the documents, nor their decoding.
      const credentials = parseZod(clientSecretSchema, request.body, 'Invalid prepare-files request');
      await authenticate(credentials.client_id, credentials.secret);
      const body = parseZod(prepareFilesRequestSchema, request.body, 'Invalid prepare-files request');
      const session = await deps.sessions.prepare(body);
      return { status: 'OK', doc_id: session.docId, expires_at: session.expiresAt };
    });

    app.post('/signing-session/status', { config: { browserAccess: 'client' } }, async (request) => {
      const body = parseZod(sessionRequestSchema, request.body, 'Invalid status request');
      await assertClientRegistered(deps.clients, body.client_id);
      return deps.sessions.status(await deps.sessions.get(body.client_id, body.doc_id));
    });

    app.post('/signing-session/reason/accept', { config: { browserAccess: 'client' } }, async (request) => {
      const body = parseZod(reasonAcceptRequestSchema, request.body, 'Invalid reason acceptance');
      await assertClientRegistered(deps.clients, body.client_id);
      await deps.sessions.acceptReason(body.client_id, body.doc_id, body.reason_text);
      return { status: 'OK' };
    });

    app.post('/download-signed-file', { config: { browserAccess: 'none' } }, async (request) => {
      const body = parseZod(downloadRequestSchema, request.body, 'Invalid download request');
      await authenticate(body.client_id, body.secret);
      return signedFileAnswer(deps.sessions, await deps.sessions.get(body.client_id, body.doc_id));
    });
  };
}
