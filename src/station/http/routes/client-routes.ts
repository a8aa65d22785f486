import type { FastifyPluginAsync } from 'fastify';
import type { WithParams } from '../route-types.js';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import Negotiator from 'negotiator';
import { StationError } from '../../../core/errors/station-error.js';
import type { ClientRegistry } from '../../clients/client-registry.js';
import { packageRoot } from '../../files/package-root.js';
import { allowRegisteredOrigin } from '../allow-registered-origin.js';

/** The copies the build compressed beside each file (scripts/build-client.js), by Accept-Encoding token. */
const COMPRESSED: Readonly<Record<string, string>> = { br: '.br', gzip: '.gz' };

/** negotiator 1.x takes the server's preference among equal weights (brotli first); its typings predate that option. */
type PreferringNegotiator = { encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined };

const FILES: Readonly<Record<string, string>> = {
  'service-browser-client.js': 'text/javascript; charset=utf-8',
  'service-browser-client.mjs': 'text/javascript; charset=utf-8',
  'service-browser-client.d.ts': 'text/plain; charset=utf-8',
};

/**
 * The browser client's build (out/client) at `/client/<file>` (docs/browser-client.md): the IIFE, the ESM file, the typings.
 * The URL carries no version, so caches revalidate after five minutes by ETag. A registered client's origin gets
 * its own origin back in CORS, which `<script integrity crossorigin>` (SRI) needs; no wildcard. Served brotli or
 * gzip as the browser accepts (the build's precompressed copies; SRI covers the decoded bytes, so it holds).
 */
export function clientRoutes(deps: { clients: Pick<ClientRegistry, 'allOrigins'> }): FastifyPluginAsync {
  return async (app) => {
    const root = join(packageRoot(), 'out', 'client');
    app.get<WithParams<'file'>>('/:file', async (request, reply) => {
      const { file } = request.params;
      const contentType = FILES[file];
      if (!contentType) throw new StationError('ERR_CLIENT_FILE_NOT_FOUND', `No client file "${file}"; there are ${Object.keys(FILES).join(', ')}.`, { status: 404 });
      const negotiator = new Negotiator(request.raw) as unknown as PreferringNegotiator;
      const encoding = negotiator.encoding(Object.keys(COMPRESSED), { preferred: Object.keys(COMPRESSED) }) ?? 'identity';
      const body = await readFile(join(root, `${file}${COMPRESSED[encoding] ?? ''}`)).catch(() => {
        throw new StationError('ERR_CLIENT_NOT_BUILT', 'The browser client is not built: run `npm run build`.', { status: 503 });
      });
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      await allowRegisteredOrigin(request, reply, deps.clients);
      if (COMPRESSED[encoding]) reply.header('content-encoding', encoding);
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
      reply.header('cache-control', 'public, max-age=300, must-revalidate').header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type(contentType).send(body);
    });
  };
}
