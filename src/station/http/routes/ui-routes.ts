import { join } from 'node:path';
import { existsSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { StationError } from '../../../core/errors/station-error.js';
import { packageRoot } from '../../files/package-root.js';
import type { UiSessions } from '../ui-sessions.js';
import { sessionCookie } from '../session-cookie.js';
import { UiSessionRequiredError } from '../guards/install-ui-session-guard.js';

const UI_CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export interface UiRouteDeps {
  isUiSession: (request: FastifyRequest) => boolean;
  sessions: UiSessions;
  cookieName: () => string;
}

/**
 * The station's own UI (the renderer build) at /ui/. `?token=` redeems a one-time launch token into a session
 * cookie and redirects to the clean URL, so the token never stays in history or Referer.
 */
export function uiRoutes(deps: UiRouteDeps): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const root = join(packageRoot(), 'out', 'renderer');

    app.addHook('onRequest', async (request, reply) => {
      const token = (request.query as Record<string, unknown>).token;
      if (typeof token === 'string') {
        const session = deps.sessions.redeem(token);
        if (!session) throw new StationError('ERR_UI_TOKEN_INVALID', 'This UI link was already used or has expired. Restart the station for a new one.', { status: 401 });
        return reply.header('set-cookie', sessionCookie(deps.cookieName(), session)).redirect('/ui/', 303);
      }
      if (!deps.isUiSession(request)) throw new UiSessionRequiredError();
    });

    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('content-security-policy', UI_CSP).header('x-frame-options', 'DENY');
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
