import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { uiSessionRequestSchema, type UiSession } from '../../../core/schemas/admin-api.js';
import { StationError } from '../../../core/errors/station-error.js';
import { parseZod } from '../../validation/parse-zod.js';
import { UI_CREDENTIAL_TTL_MS, type UiSessions } from '../ui-sessions.js';

/**
 * POST /admin/api/session: the station UI page exchanges the one-time launch token (read from its URL fragment,
 * which never reaches a server log or a Referer) for the credential it keeps. Only the station's own origin may
 * ask (`requiresOwnOrigin`), so a page on another port cannot redeem a link it has seen.
 */
export function uiSessionRoutes(sessions: UiSessions): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    app.post('/session', { config: { browserAccess: 'station', requiresOwnOrigin: true } }, async (request): Promise<UiSession> => {
      const { launchToken } = parseZod(uiSessionRequestSchema, request.body, 'Invalid UI session request');
      const credential = sessions.redeem(launchToken);
      if (!credential) throw new StationError('ERR_UI_TOKEN_INVALID', 'This UI link was already used or has expired. Get a new one with `signing-station ui` (or the tray menu).', { status: 401 });
      return { credential, expiresInSeconds: UI_CREDENTIAL_TTL_MS / 1000 };
    });
  };
}
