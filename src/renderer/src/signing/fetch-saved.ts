import { uiCredential } from '../ui-credential.js';
import { StationApiError } from '../station-api.js';
import { passedOn } from '../../../core/errors/browser-error-codes.js';

/**
 * A file the window saved, read back from the output folder by its name (a plain link could not carry the UI
 * credential): for the browser's download and for the Verify screen's "verify this file".
 */
export async function fetchSaved(fileName: string): Promise<File> {
  const response = await fetch(`/admin/api/desk/saved?name=${encodeURIComponent(fileName)}`, { headers: { authorization: `Bearer ${await uiCredential()}` }, credentials: 'omit' });
  if (!response.ok) throw new StationApiError(`The station answered HTTP ${response.status}.`, response.status === 404 ? passedOn('ERR_DESK_SAVED_NOT_FOUND') : 'ERR_HTTP');
  return new File([await response.blob()], fileName);
}
