import type { ClientRegistry } from '../clients/client-registry.js';

/**
 * The station's own client: documents the user signs from the station window are signing sessions of this
 * client, driven through the same browser-facing endpoints a web page uses, from the station's own origin.
 */
export const DESK_CLIENT_ID = 'signing-station-desk';

/** Registers (or re-points, after a port change) the desk client at the station's origin. */
export async function registerDeskClient(clients: Pick<ClientRegistry, 'upsert'>, stationOrigin: string): Promise<void> {
  await clients.upsert({ clientId: DESK_CLIENT_ID, redirectUris: [], allowedIps: [], allowedOrigins: [stationOrigin] });
}
