import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { fingerprintSchema, trustAddRequestSchema, trustEuRequestSchema, trustImportRequestSchema, type TrustRefreshResult, type TrustSources } from '../../../core/schemas/trust-api.js';
import { parseZod } from '../../validation/parse-zod.js';

/** What the Settings' trust section calls (src/station/verification/trusted-lists/managed-trust.ts, loaded on first use). */
export interface TrustRouteDeps {
  dataDir: string;
  /** This station's own TSA chain, shown as a trust source for timestamps. */
  tsaCertificates: () => readonly Uint8Array[];
}

/** A few national lists of several megabytes each, as JSON. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024;

const fingerprintParams = z.object({ fingerprint: fingerprintSchema });

/** The trust a person manages, for the window's Settings: the same operations as `signing-station trust`. */
export function trustRoutes(deps: TrustRouteDeps): FastifyPluginAsync {
  const open = async () => (await import('../../verification/trusted-lists/managed-trust.js')).ManagedTrust.open(deps.dataDir);
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'station' as const, requiresUiSession: true };

    app.get('/trust', { config }, async (): Promise<TrustSources> => (await open()).sources(deps.tsaCertificates()));

    app.post('/trust/certificates', { config }, async (request, reply) => {
      const body = parseZod(trustAddRequestSchema, request.body, 'Invalid certificate');
      return reply.code(201).send(await (await open()).add(body));
    });

    app.delete('/trust/certificates/:fingerprint', { config }, async (request, reply) => {
      const { fingerprint } = parseZod(fingerprintParams, request.params, 'Invalid fingerprint');
      await (await open()).remove(fingerprint);
      return reply.code(204).send();
    });

    app.put('/trust/eu', { config }, async (request, reply) => {
      const { enabled } = parseZod(trustEuRequestSchema, request.body, 'Say enabled: true or false');
      await (await open()).setEuLists(enabled);
      return reply.code(204).send();
    });

    app.post('/trust/lists', { config, bodyLimit: IMPORT_BODY_LIMIT }, async (request): Promise<TrustRefreshResult> => {
      const { lists } = parseZod(trustImportRequestSchema, request.body, 'Invalid trusted lists');
      return (await open()).updater.importLists(lists.map(({ name, xml }) => ({ file: name, xml })));
    });

    app.post('/trust/refresh', { config }, async (): Promise<TrustRefreshResult> => (await open()).refresh());
  };
}
