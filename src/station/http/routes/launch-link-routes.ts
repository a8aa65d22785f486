import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';
import type { UiControl } from '../ui-control.js';

/**
 * POST /admin/api/launch-link (`Authorization: Station-Control <secret>`, no Origin): a new one-time link to the
 * station UI for `signing-station ui`, so a lost or used link never needs a restart. See UiControl.
 */
export function launchLinkRoutes(control: UiControl, uiUrl: () => string): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    // The secret is a header: checked before the body is read, as every header-borne credential is.
    const authorize = async (request: FastifyRequest): Promise<void> => {
      const secret = /^Station-Control (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!control.accepts(secret)) throw new ForbiddenError('ERR_UI_CONTROL_FORBIDDEN', 'Only the user running the station may ask it for a UI link.');
    };
    app.post('/launch-link', { config: { browserAccess: 'none' }, onRequest: authorize }, async () => ({ url: uiUrl() }));
  };
}
