import { jsonErrorBodySchema } from '../core/schemas/json-error-body.js';
import { StationCallError } from './station-call-error.js';
import { passedOn } from '../core/errors/browser-error-codes.js';

/**
 * POST to this page's own station (same origin): `/web-element/api/<path>`. The request stays open while the
 * station asks the user; aborting it (`signal`), or this page going away, closes it, and the station then
 * withdraws the prompts it holds.
 */
export async function callStation(path: 'certificate' | 'signature' | 'auth-token', body: unknown, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`/web-element/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
  } catch {
    if (signal.aborted) throw new StationCallError('ERR_CLIENT_CANCELLED', 'The web page cancelled the request.', false);
    throw new StationCallError('ERR_IFRAME_STATION_UNREACHABLE', 'Signing Station is not running.', true);
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (response.ok) return answer;
  const error = jsonErrorBodySchema.safeParse(answer);
  if (error.success) throw new StationCallError(error.data.code ? passedOn(error.data.code) : 'ERR_HTTP', error.data.message, error.data.retriable ?? false, error.data.details);
  throw new StationCallError('ERR_HTTP', `Signing Station answered HTTP ${response.status}.`, response.status >= 500);
}
