import type { HttpPlugin, HttpScope } from '../server/http-scope.js';
import { ForbiddenError } from '../../../core/errors/forbidden-error.js';
import type { UiControl } from '../ui-control.js';

/**
 * POST /admin/api/launch-link (`Authorization: Station-Control <secret>`, no Origin): a new one-time link to the
 * station UI for `signing-station ui`, so a lost or used link never needs a restart. See UiControl.
 */
export function launchLinkRoutes(control: UiControl, uiUrl: () => string): HttpPlugin {
  return async (app: HttpScope) => {
    app.post('/launch-link', { config: { browserAccess: 'none' } }, async (request) => {
      const secret = /^Station-Control (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!control.accepts(secret)) throw new ForbiddenError('ERR_UI_CONTROL_FORBIDDEN', 'Only the user running the station may ask it for a UI link.');
      return { url: uiUrl() };
    });
  };
}
