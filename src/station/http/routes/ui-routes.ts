import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fastifyStatic from '@fastify/static';
import { StationError } from '../../../core/errors/station-error.js';
import { packageRoot } from '../../files/package-root.js';

const UI_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The station's own UI (the renderer build) at /ui/. The files hold no secret and are served to anyone; what they
 * show comes from /admin/api, which needs the credential the page gets from its launch link (ui-session-routes.ts).
 * `Referrer-Policy: no-referrer` (security headers) and the fragment keep the launch token out of other servers.
 */
export function uiRoutes(): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const root = join(packageRoot(), 'out', 'renderer');

    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', UI_CSP).header('x-frame-options', 'DENY').header('cache-control', 'no-store');
      return payload;
    });

    if (!existsSync(join(root, 'index.html'))) {
      app.get('/*', async () => {
        throw new StationError('ERR_UI_NOT_BUILT', 'The station UI is not built: run `npm run build`.', { status: 503 });
      });
      return;
    }
    await app.register(fastifyStatic, { root, prefix: '/', index: 'index.html', wildcard: true, cacheControl: false });
  };
}
