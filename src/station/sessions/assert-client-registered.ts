import type { ClientRegistry } from '../clients/client-registry.js';
import { SessionNotFoundError } from './signing-session-errors.js';

/**
 * A removed client's sessions stay in the store until they expire but must not be reachable: the answer is the
 * same 404 as for an unknown document, so neither is an oracle for the other.
 */
export async function assertClientRegistered(clients: Pick<ClientRegistry, 'find'>, clientId: string): Promise<void> {
  if (!(await clients.find(clientId))) throw new SessionNotFoundError();
}
