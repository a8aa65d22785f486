/** The station's fixed default port: web pages look for the local helper here. `--port 0` picks a free one. */
export const DEFAULT_PORT = 27420;

/** Loopback only: the station is a local helper and never listens on a network interface. */
export const LOOPBACK_HOSTS = ['127.0.0.1'] as const;

export const STATION_NAME = 'Signing Station';

/**
 * The station's own client: documents the user signs from the station window are signing sessions of this
 * client, driven through the same browser-facing endpoints a web page uses, from the station's own origin.
 */
export const DESK_CLIENT_ID = 'signing-station-desk';
