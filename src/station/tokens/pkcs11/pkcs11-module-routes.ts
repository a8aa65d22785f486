import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { pkcs11ModuleAddRequestSchema, type Pkcs11ModulesView } from '../../../core/schemas/pkcs11-modules.js';
import { NotFoundError } from '../../../core/errors/not-found-error.js';
import { parseZod } from '../../validation/parse-zod.js';
import type { Pkcs11ModuleRegistry } from './pkcs11-module-registry.js';
import type { Pkcs11TokenSource } from './pkcs11-token-source.js';

export interface Pkcs11ModuleRouteDeps {
  registry: Pkcs11ModuleRegistry;
  source: Pkcs11TokenSource;
  /** Starts the token sources if no one has yet (the modules load then) and resolves once they have. */
  ready: () => Promise<void>;
}

const removeQuery = z.object({ path: z.string().min(1) });

/**
 * The station UI's module settings (mounted under /admin/api): list, add and remove user PKCS#11 modules and NSS
 * databases. A change takes effect at once: the source loads or unloads that module without a restart. A library
 * outside the allowlist is refused here, whoever holds the UI credential: trusting code to load is decided on the
 * user's own terminal (the refusal names the command) or in the config file, never by an answer over HTTP.
 */
export function pkcs11ModuleRoutes(deps: Pkcs11ModuleRouteDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'station' as const, requiresUiSession: true };

    app.get('/pkcs11/modules', { config }, async (): Promise<Pkcs11ModulesView> => {
      await deps.ready();
      return {
        loaded: deps.source.modules().map(({ name, path, kind, origin }) => ({ name, path, kind, origin })),
        user: await deps.registry.list(),
        problems: deps.source.problems(),
      };
    });

    app.post('/pkcs11/modules', { config }, async (request, reply) => {
      const { path, kind } = parseZod(pkcs11ModuleAddRequestSchema, request.body, 'Invalid module');
      const entry = await deps.registry.add(path, kind);
      await deps.source.refreshModules();
      return reply.code(201).send(entry);
    });

    app.delete('/pkcs11/modules', { config }, async (request, reply) => {
      const { path } = parseZod(removeQuery, request.query, 'Invalid module');
      if (!(await deps.registry.remove(path))) throw new NotFoundError('ERR_TOKEN_MODULE_NOT_FOUND', `${path} is not a user-added module.`);
      await deps.source.refreshModules();
      return reply.code(204).send();
    });
  };
}
