import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { parseZod } from '../validation/parse-zod.js';
import { NotFoundError } from '../../core/errors/not-found-error.js';
import type { SigningMethodTable } from './signing-method-table.js';
import type { SigningRequestContext } from './signing-method.js';
import { requesterGoneSignal } from '../http/requester-gone-signal.js';
import type { SigningSessions } from './signing-sessions.js';
import { withPreparedSigner } from './with-prepared-signer.js';

const completeParams = z.object({ method: z.string().regex(/^[a-z0-9-]{1,64}$/, 'is not a method code') });
const signTypeOf = (body: unknown): unknown => (typeof body === 'object' && body !== null ? (body as Record<string, unknown>).sign_type : undefined);

/**
 * The browser-facing signing endpoints: each is one lookup in the method table and a hand-over. Origins are
 * checked before this by the origin guard (`browserAccess: 'client'`).
 */
export function signingMethodRoutes(methods: SigningMethodTable, sessions: Pick<SigningSessions, 'get'>): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const config = { browserAccess: 'client' as const };

    app.post('/start-signing', { config }, async (request, reply) =>
      methods.forSignType(signTypeOf(request.body)).start(await withPreparedSigner(request.body, sessions), contextOf(request, reply)),
    );

    app.post('/:method/complete', { config }, async (request, reply) => {
      const { method } = parseZod(completeParams, request.params, 'Unknown signing method');
      return methods.forCompletePath(method).complete(method, request.body, contextOf(request, reply));
    });

    app.post('/:method/continue', { config }, async (request, reply) => {
      const { method } = parseZod(completeParams, request.params, 'Unknown signing method');
      const found = methods.forCompletePath(method);
      if (!found.continue) throw new NotFoundError('ERR_SIGNING_NO_CONTINUE', `Signing method "${method}" has no continue step.`);
      return found.continue(method, request.body, contextOf(request, reply));
    });
  };
}

function contextOf(request: FastifyRequest, reply: FastifyReply): SigningRequestContext {
  return { origin: request.headers.origin, signal: requesterGoneSignal(reply) };
}
