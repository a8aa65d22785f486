import type { FastifyInstance, FastifyRequest } from 'fastify';
import { StationError } from '../../../core/errors/station-error.js';

export class UiSessionRequiredError extends StationError {
  constructor() {
    super('ERR_UI_SESSION_REQUIRED', 'Open the station UI through the link the station printed (it carries a one-time token).', { status: 401 });
  }
}

/** Routes that declare `requiresUiSession` (route-config.ts) answer only the station UI's session. */
export function installUiSessionGuard(app: FastifyInstance, isUiSession: (request: FastifyRequest) => boolean): void {
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.requiresUiSession && !isUiSession(request)) throw new UiSessionRequiredError();
  });
}
