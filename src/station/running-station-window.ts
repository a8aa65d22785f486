import { StationError } from '../core/errors/station-error.js';
import { requestLaunchLink } from './http/request-launch-link.js';
import { writeLaunchPage } from './ui-state/write-launch-page.js';

export interface RunningStationWindow {
  /** Where the running station listens. */
  baseUrl: string;
  /** A page (0600, in the data directory) that opens a one-time link to its UI: for the OS's opener, never the link. */
  launchPage: string;
}

/**
 * What the desktop app does when its start finds another station holding the data directory (`serve`, or any
 * station started on the same directory): instead of a dead window, it opens the running one's UI. Undefined for
 * any other failure of the start, which the app reports as such.
 */
export async function runningStationWindow(startFailure: unknown, dataDir: string): Promise<RunningStationWindow | undefined> {
  if (!(startFailure instanceof StationError) || startFailure.code !== 'ERR_STORE_IN_USE') return undefined;
  const baseUrl = startFailure.details?.baseUrl;
  if (typeof baseUrl !== 'string') return undefined;
  const launchPage = await writeLaunchPage(dataDir, await requestLaunchLink(dataDir));
  return { baseUrl, launchPage };
}
