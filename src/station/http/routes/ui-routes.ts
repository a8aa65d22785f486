import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { WithParams } from '../route-types.js';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { StationError } from '../../../core/errors/station-error.js';
import { packageRoot } from '../../files/package-root.js';
import { NotFoundError } from '../../../core/errors/not-found-error.js';

const UI_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/**
 * The station's own UI (the renderer build) at /ui/. The files hold no secret and are served to anyone; what they
 * show comes from /admin/api, which needs the credential the page gets from its launch link (ui-session-routes.ts).
 * `Referrer-Policy: no-referrer` (security headers) and the fragment keep the launch token out of other servers.
 */
export function uiRoutes(): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const root = join(packageRoot(), 'out', 'renderer');

    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('content-security-policy', UI_CSP).header('x-frame-options', 'DENY').header('cache-control', 'no-store');
      done(null, payload);
    });

    if (!existsSync(join(root, 'index.html'))) {
      app.get('/*', async () => {
        throw new StationError('ERR_UI_NOT_BUILT', 'The station UI is not built: run `npm run build`.', { status: 503 });
      });
      return;
    }
    app.get<WithParams<'*'>>('/*', (request, reply) => sendUiFile(root, request, reply));
  };
}

/**
 * One file of the UI through @fastify/send (traversal, dotfiles, ranges, ETag), imported on the first UI request:
 * @fastify/static would load it, glob and mime on every start, for a page most starts never serve.
 */
async function sendUiFile(root: string, request: FastifyRequest<WithParams<'*'>>, reply: FastifyReply): Promise<FastifyReply> {
  const { default: send } = await import('@fastify/send');
  const path = encodeURI(`/${request.params['*']}`);
  const result = await send(request.raw, path, { root, index: ['index.html'], dotfiles: 'deny', cacheControl: false });
  if (result.type === 'file') return reply.code(result.statusCode).headers(result.headers).send(result.stream);
  if (result.type === 'error' && result.statusCode >= 500) throw result.metadata.error;
  throw new NotFoundError('ERR_HTTP_NOT_FOUND', `No file /${request.params['*']} in the station UI.`);
}
