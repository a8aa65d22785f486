import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  clientSecretSchema,
  downloadRequestSchema,
  reasonAcceptRequestSchema,
  sessionRequestSchema,
} from '../../core/schemas/signing-session-api.js';
import { parseZod } from '../validation/parse-zod.js';
import type { ClientRegistry } from '../clients/client-registry.js';
import type { SigningSessions } from './signing-sessions.js';
import { ClientAuthenticationError } from './signing-session-errors.js';
import { assertClientRegistered } from './assert-client-registered.js';
import { signedFileAnswer } from './signed-file-answer.js';
import { readPrepareBody, type PrepareBody } from './read-prepare-body.js';
import { streamedPrepareRequestSchema } from './streamed-prepare-request.js';
import { drainRequestBody } from '../http/drain-request-body.js';

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
    await app.register(async (prepare) => {
      // This route's body streams: documents go to disk as they arrive, and the secret is checked as soon as it has.
      prepare.removeContentTypeParser('application/json');
      prepare.addContentTypeParser('application/json', async (_request: unknown, payload: Readable) => {
        const body = await readPrepareBody(payload, {
          limitBytes: PREPARE_BODY_LIMIT,
          uploadsDirectory: deps.sessions.uploadsDirectory,
          authenticate: async (sent) => {
            const credentials = parseZod(clientSecretSchema, sent, 'Invalid prepare-files request');
            await authenticate(credentials.client_id, credentials.secret);
          },
        }).catch((error: unknown) => {
          // The answer goes out while the client may still be sending: the rest is read and dropped, not held.
          drainRequestBody(payload, PREPARE_BODY_LIMIT);
          throw error;
        });
        return body;
      });
      prepare.post('/prepare-files-for-signing', { bodyLimit: PREPARE_BODY_LIMIT, config: { browserAccess: 'none', bodyStreamed: true } }, async (request) => {
        const { value, staged } = request.body as PrepareBody;
        try {
          const session = await deps.sessions.prepare(parseZod(streamedPrepareRequestSchema, value, 'Invalid prepare-files request'));
          return { status: 'OK', doc_id: session.docId, expires_at: session.expiresAt };
        } finally {
          await Promise.all(staged.map((document) => rm(document.path, { force: true })));
        }
      });
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
