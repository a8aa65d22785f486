import type { ClientRegistry } from '../clients/client-registry.js';
import { DESK_CLIENT_ID } from '../../core/constants.js';

/** Registers (or re-points, after a port change) the desk client at the station's origin. */
export async function registerDeskClient(clients: Pick<ClientRegistry, 'upsert'>, stationOrigin: string): Promise<void> {
  await clients.upsert({ clientId: DESK_CLIENT_ID, redirectUris: [], allowedIps: [], allowedOrigins: [stationOrigin] });
}
