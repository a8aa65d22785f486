import type { FastifyPluginAsync } from 'fastify';
import type { WithParams } from '../route-types.js';
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '../../../core/errors/not-found-error.js';

/** The guides in `dir` (the package's docs/), by name without `.md`. */
export function listDocs(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((file) => /^[a-z0-9-]+\.md$/.test(file))
      .map((file) => file.slice(0, -3))
      .sort();
  } catch {
    return []; // An install without docs/ still serves everything else.
  }
}

/** GET /docs/:name: a guide as Markdown; only names listed at start are served, so no path reaches the disk. */
export function docsRoutes(dir: string, names: readonly string[]): FastifyPluginAsync {
  const known = new Set(names);
  return async (app) => {
    app.get<WithParams<'name'>>('/docs/:name', async (request, reply) => {
      if (!known.has(request.params.name)) throw new NotFoundError('ERR_DOCS_NOT_FOUND', `No guide named ${request.params.name}.`);
      const text = await readFile(join(dir, `${request.params.name}.md`), 'utf8');
      return reply.type('text/markdown; charset=utf-8').send(text);
    });
  };
}
