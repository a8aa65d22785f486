import { StationError } from '../../core/errors/station-error.js';
import { readUiControl } from './ui-control.js';

/**
 * A new one-time link to the UI of the station running with `dataDir`, asked through its control file (readable by
 * this user only): what `signing-station ui` prints and what the desktop app opens when a station already runs.
 */
export async function requestLaunchLink(dataDir: string): Promise<string> {
  const control = await readUiControl(dataDir);
  if (!control) throw notRunning(dataDir);
  const response = await fetch(`${control.baseUrl}/admin/api/launch-link`, { method: 'POST', headers: { authorization: `Station-Control ${control.secret}` } }).catch(
    (error: unknown) => {
      throw notRunning(dataDir, error);
    },
  );
  if (!response.ok) throw new StationError('ERR_UI_CONTROL_FORBIDDEN', `The station at ${control.baseUrl} refused to give a link (HTTP ${response.status}); restart it.`);
  const { url } = (await response.json()) as { url: string };
  return url;
}

function notRunning(dataDir: string, cause?: unknown): StationError {
  return new StationError('ERR_UI_STATION_NOT_RUNNING', `No station is running with the data directory ${dataDir}: start one with \`signing-station serve\`.`, cause === undefined ? {} : { cause });
}
