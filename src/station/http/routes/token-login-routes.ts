import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { pinUnlockTimeSchema, tokenParamsSchema, type PinUnlockTime } from '../../../core/schemas/pin-unlock.js';
import { parseZod } from '../../validation/parse-zod.js';
import type { TokenUnlockTime } from '../../desk/token-unlock-time.js';

/** The window's control over kept token logins (under /admin/api, UI credential): how long, and "lock now". */
export function tokenLoginRoutes(unlock: TokenUnlockTime): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'station' as const, requiresUiSession: true };

    app.get('/tokens/unlock-time', { config }, async (): Promise<PinUnlockTime> => ({ seconds: await unlock.seconds() }));

    app.put('/tokens/unlock-time', { config }, async (request): Promise<PinUnlockTime> => {
      const { seconds } = parseZod(pinUnlockTimeSchema, request.body, 'Invalid unlock time');
      await unlock.set(seconds);
      return { seconds };
    });

    app.post('/tokens/:tokenId/lock', { config }, async (request, reply) => {
      const { tokenId } = parseZod(tokenParamsSchema, request.params, 'Invalid token id');
      await unlock.lock(tokenId);
      return reply.code(204).send();
    });
  };
}
