import type { StationMode } from '../../../core/schemas/station-mode.js';
import type { FastifyPluginAsync } from 'fastify';

/** GET /api/health: liveness for scripts and the desktop shell; carries nothing sensitive. */
export function healthRoutes(info: { version: string; mode: StationMode }): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', async () => ({ status: 'OK', version: info.version, mode: info.mode }));
  };
}
