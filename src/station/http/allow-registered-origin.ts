import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientRegistry } from '../clients/client-registry.js';

/**
 * CORS for a public read that any registered client's page may make (the client script, a provider's public key):
 * the requesting origin echoed when some client registered it, never `*`, no credentials.
 */
export async function allowRegisteredOrigin(request: FastifyRequest, reply: FastifyReply, clients: Pick<ClientRegistry, 'allOrigins'>): Promise<void> {
  const origin = request.headers.origin;
  if (origin && (await clients.allOrigins()).has(origin)) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
}
