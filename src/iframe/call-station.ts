import { jsonErrorBodySchema } from '../core/schemas/json-error-body.js';
import { StationCallError } from './station-call-error.js';
import { passedOn } from '../core/errors/browser-error-codes.js';

/** POST to this page's own station (same origin): `/web-element/api/<path>`. */
export async function callStation(path: 'certificate' | 'signature' | 'auth-token', body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`/web-element/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch {
    throw new StationCallError('ERR_IFRAME_STATION_UNREACHABLE', 'Signing Station is not running.', true);
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (response.ok) return answer;
  const error = jsonErrorBodySchema.safeParse(answer);
  if (error.success) throw new StationCallError(error.data.code ? passedOn(error.data.code) : 'ERR_HTTP', error.data.message, error.data.retriable ?? false);
  throw new StationCallError('ERR_HTTP', `Signing Station answered HTTP ${response.status}.`, response.status >= 500);
}
