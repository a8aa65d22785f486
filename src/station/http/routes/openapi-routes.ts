import type { FastifyPluginAsync } from 'fastify';
import { API_OPERATIONS } from '../openapi/api-operations.js';
import { buildOpenApiDocument, type RegisteredRoute } from '../openapi/openapi-document.js';

/**
 * GET /openapi.json: built on first request from the routes registered by then (all of them: routes are added
 * before the server listens) and the operation table, then kept.
 */
export function openApiRoutes(info: { version: string; routes: () => readonly RegisteredRoute[] }): FastifyPluginAsync {
  let document: object | undefined;
  return async (app) => {
    app.get('/openapi.json', async () => (document ??= buildOpenApiDocument({ version: info.version, routes: info.routes(), operations: API_OPERATIONS })));
  };
}
