import * as z from 'zod';
import { jsonErrorBodySchema } from '../../../core/schemas/json-error-body.js';
import type { ApiOperation } from './api-operations.js';

export interface RegisteredRoute {
  method: string;
  url: string;
}

/** Methods answered for every path (HEAD by the GET routes, OPTIONS by the CORS preflight): not operations of ours. */
const IMPLICIT_METHODS = new Set(['HEAD', 'OPTIONS']);

/** `METHOD /path` keys of the routes that are operations of ours, in registration order, without repeats. */
export function operationKeys(routes: readonly RegisteredRoute[]): string[] {
  const keys = routes.filter((route) => !IMPLICIT_METHODS.has(route.method)).map((route) => `${route.method} ${route.url.replace(/\/$/, '') || '/'}`);
  return [...new Set(keys)];
}

function content(body: ApiOperation['request']): Record<string, unknown> | undefined {
  if (!body) return undefined;
  if ('mediaType' in body) return { [body.mediaType]: {} };
  return { 'application/json': { schema: z.toJSONSchema(body, { io: 'input', unrepresentable: 'any' }) } };
}

/** `/api/timestamp/:client_id` → `/api/timestamp/{client_id}` with its path parameters. */
function openApiPath(url: string): { path: string; parameters: object[] } {
  const names: string[] = [];
  const path = url.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path, parameters: names.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })) };
}

/** What a registered route with no entry in the table is described as; the home-page test refuses any. */
export const UNDESCRIBED_SUMMARY = 'Not described yet (src/station/http/openapi/api-operations.ts)';

/**
 * The OpenAPI 3.1 description of the routes the station registered: the paths come from the server's own route
 * list and the bodies from the same zod schemas the routes validate with. A route missing from `operations` is still listed,
 * marked UNDESCRIBED_SUMMARY, so the description never leaves a route out.
 */
export function buildOpenApiDocument(info: { version: string; routes: readonly RegisteredRoute[]; operations: Readonly<Record<string, ApiOperation>> }): object {
  const paths: Record<string, Record<string, object>> = {};
  const errorBody = { 'application/json': { schema: z.toJSONSchema(jsonErrorBodySchema) } };
  for (const key of operationKeys(info.routes)) {
    const operation: ApiOperation = info.operations[key] ?? { summary: UNDESCRIBED_SUMMARY, caller: 'anyone local' };
    const [method, url] = key.split(' ') as [string, string];
    const { path, parameters } = openApiPath(url);
    const requestBody = content(operation.request);
    const okBody = content(operation.response);
    (paths[path] ??= {})[method.toLowerCase()] = {
      summary: operation.summary,
      description: `Caller: ${operation.caller}.`,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody: { required: true, content: requestBody } } : {}),
      responses: { '200': { description: 'OK', ...(okBody ? { content: okBody } : {}) }, default: { description: 'Error', content: errorBody } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Signing Station', version: info.version, description: 'The local signing station’s HTTP interface on 127.0.0.1.' },
    paths,
  };
}
