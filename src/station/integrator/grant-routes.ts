import { createHash } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { clientIdSchema } from '../../core/schemas/client-registration.js';
import { grantedPrepareRequestSchema } from '../../core/schemas/signing-session-api.js';
import { grantedDownloadRequestSchema, type SigningGrantClaims } from '../../core/schemas/signing-grant.js';
import { StationError } from '../../core/errors/station-error.js';
import { parseZod } from '../validation/parse-zod.js';
import type { SigningSessions } from '../sessions/signing-sessions.js';
import { PREPARE_BODY_LIMIT } from '../sessions/signing-session-routes.js';
import { signedFileAnswer } from '../sessions/signed-file-answer.js';
import type { SigningGrantVerifier } from './signing-grant-verifier.js';
import type { GrantedDownloads } from './granted-downloads.js';

export interface GrantRoutesDeps {
  sessions: Pick<SigningSessions, 'prepare' | 'get' | 'readFile'>;
  grants: Pick<SigningGrantVerifier, 'verify' | 'spend'>;
  downloads: GrantedDownloads;
}

const paramsSchema = z.object({ client_id: clientIdSchema });

/** The files the page sent must be exactly those the grant names, in its order, and the container it names. */
function assertGranted(claims: SigningGrantClaims, request: z.infer<typeof grantedPrepareRequestSchema>): void {
  const sent = request.files.map((file) => ({ name: file.fileName, sha256: createHash('sha256').update(Buffer.from(file.fileContent, 'base64')).digest('hex') }));
  const same = claims.container_type === request.container_type && sent.length === claims.files.length && sent.every((file, index) => file.name === claims.files[index]!.name && file.sha256 === claims.files[index]!.sha256);
  if (!same) {
    throw new StationError('ERR_INTEGRATOR_GRANT_MISMATCH', 'The files (or container) are not the ones the signing grant names.', {
      status: 400,
      details: { granted: claims.files, container_type: claims.container_type, sent },
    });
  }
}

/**
 * A web app whose server cannot reach the user's machine (docs/integrating.md#remote-backend): its page prepares a
 * document with a signing grant its server signed, instead of the secret that never belongs in a browser, and
 * downloads the signed result with the capability the prepare answered. Both from the client's registered origins
 * only; the consent prompt at start-signing shows that origin and every file, as for any other page.
 */
export function grantRoutes(deps: GrantRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    const config = { browserAccess: 'client', originRequired: true, errorFormat: 'json' } as const;

    app.post('/:client_id/grant/prepare', { bodyLimit: PREPARE_BODY_LIMIT, config }, async (request) => {
      const { client_id: clientId } = parseZod(paramsSchema, request.params, 'Invalid integrator path');
      const origin = request.headers.origin!;
      // The grant first: a forged or stale one costs no validation of the documents, nor their decoding.
      const { grant } = parseZod(z.object({ grant: z.string().min(1).max(16_384) }), request.body, 'Invalid granted prepare');
      const claims = await deps.grants.verify(clientId, grant, origin);
      const body = parseZod(grantedPrepareRequestSchema, request.body, 'Invalid granted prepare');
      assertGranted(claims, body);
      await deps.grants.spend(clientId, claims);
      const { grant: _grant, ...fields } = body;
      const session = await deps.sessions.prepare({ ...fields, client_id: clientId });
      return { status: 'OK', doc_id: session.docId, expires_at: session.expiresAt, download_token: deps.downloads.issue(clientId, session.docId, origin) };
    });

    app.post('/:client_id/grant/download', { config }, async (request) => {
      const { client_id: clientId } = parseZod(paramsSchema, request.params, 'Invalid integrator path');
      const body = parseZod(grantedDownloadRequestSchema, request.body, 'Invalid granted download');
      deps.downloads.check(clientId, body.doc_id, body.download_token, request.headers.origin!);
      return signedFileAnswer(deps.sessions, await deps.sessions.get(clientId, body.doc_id));
    });
  };
}
