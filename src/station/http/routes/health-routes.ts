import type { FastifyPluginAsync } from 'fastify';
import type { Health } from '../../../core/schemas/health.js';

/** GET /api/health: liveness for scripts, monitors and the desktop shell; carries nothing sensitive. */
export function healthRoutes(info: Omit<Health, 'status'>): FastifyPluginAsync {
  return async (app) => {
    app.get('/health', async (): Promise<Health> => ({ status: 'OK', version: info.version, mode: info.mode }));
  };
}
