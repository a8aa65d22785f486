import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import {
  deskPrepareRequestSchema,
  deskBatchRequestSchema,
  type DeskBatchResponse,
  deskSessionParamsSchema,
  deskTimestampRequestSchema,
  deskIdentifyRequestSchema,
  deskSavedQuerySchema,
  deskIdentifyCompleteRequestSchema,
  deskPlacementRequestSchema,
  type DeskPlacementResponse,
  type DeskIdentifyStarted,
  type DeskIdentifyMethod,
  type DeskPrepareResponse,
  type DeskSavedFile,
} from '../../../core/schemas/desk-api.js';
import { parseZod } from '../../validation/parse-zod.js';
import type { DeskSigningService } from '../../desk/desk-signing-service.js';
import type { DeskTimestampService } from '../../desk/desk-timestamp-service.js';
import type { DeskIdentifyService } from '../../desk/desk-identify-service.js';
import type { IdentifiedPerson } from '../../../core/schemas/identity-api.js';
import { openSavedFile } from '../../desk/open-saved-file.js';
import { deskPlacement } from '../../desk/desk-placement.js';

/** Files from the window travel as base64 in JSON: room for documents of a few hundred megabytes. */
const DESK_BODY_LIMIT = 400 * 1024 * 1024;

/**
 * What the station window does with the user's own documents (mounted under /admin/api, UI credential):
 * prepare files as a signing session of the station's own client (signed through the browser client, as web pages
 * sign), save the signed result, timestamp a file, try an identification method. Each handler parses and hands over; the services decide.
 */
export function deskRoutes(deps: { signing: DeskSigningService; timestamps: DeskTimestampService; identify: DeskIdentifyService; outputDir: () => string; dataDir: string }): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'station' as const, requiresUiSession: true };

    app.post('/desk/sessions', { config, bodyLimit: DESK_BODY_LIMIT }, async (request, reply) => {
      const prepared: DeskPrepareResponse = await deps.signing.prepare(parseZod(deskPrepareRequestSchema, request.body, 'Invalid documents'));
      return reply.code(201).send(prepared);
    });

    app.post('/desk/batches', { config, bodyLimit: DESK_BODY_LIMIT }, async (request, reply) => {
      const prepared: DeskBatchResponse = await deps.signing.prepareBatch(parseZod(deskBatchRequestSchema, request.body, 'Invalid documents'));
      return reply.code(201).send(prepared);
    });

    app.post('/desk/sessions/:docId/save', { config }, async (request): Promise<DeskSavedFile> => {
      const { docId } = parseZod(deskSessionParamsSchema, request.params, 'Invalid document id');
      return deps.signing.save(docId);
    });

    // The window's browser download of a result: the file itself, under its name, to the UI session only.
    app.get('/desk/saved', { config }, async (request, reply) => {
      const { name } = parseZod(deskSavedQuerySchema, request.query, 'Invalid file name');
      const { handle, size } = await openSavedFile(deps.outputDir(), name);
      return reply
        .type('application/octet-stream')
        .header('content-length', size)
        .header('content-disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('cache-control', 'no-store')
        .send(handle.createReadStream());
    });

    app.get('/desk/identify', { config }, async (): Promise<DeskIdentifyMethod[]> => deps.identify.methods());

    app.post('/desk/identify', { config }, async (request): Promise<DeskIdentifyStarted> =>
      deps.identify.start(parseZod(deskIdentifyRequestSchema, request.body, 'Invalid identification')),
    );

    app.post('/desk/identify/complete', { config }, async (request): Promise<IdentifiedPerson> =>
      deps.identify.complete(parseZod(deskIdentifyCompleteRequestSchema, request.body, 'Invalid identification')),
    );

    app.post('/desk/timestamp', { config, bodyLimit: DESK_BODY_LIMIT }, async (request): Promise<DeskSavedFile> =>
      deps.timestamps.timestamp(parseZod(deskTimestampRequestSchema, request.body, 'Invalid file')),
    );

    app.post('/desk/placement', { config, bodyLimit: DESK_BODY_LIMIT }, async (request): Promise<DeskPlacementResponse> =>
      deskPlacement(parseZod(deskPlacementRequestSchema, request.body, 'Invalid placement request'), deps.dataDir),
    );
  };
}
