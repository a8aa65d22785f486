import { JSON_HEADERS, type ServiceAnswer } from '../core/schemas/browser-client-wire.js';
import { ClientError, cancelled } from './client-error.js';
import { passedOn } from '../core/errors/browser-error-codes.js';
import type { RequestSettings, Settings } from './client-settings.js';

/** Gateway answers that mean "the service is not reachable right now", counted like network errors. */
const UNREACHABLE = new Set([502, 503, 504]);

export class NetworkError extends ClientError {}

/**
 * One JSON call as the published client makes it: its three headers (so the CORS preflight is the one the
 * service expects), credentials for the integrator's identity endpoints, and the integrator's
 * `modifyRequestSettings` hook last. A service error body becomes a ClientError carrying message and errors.
 */
export async function callService(settings: Settings, request: RequestSettings, signal: AbortSignal): Promise<ServiceAnswer> {
  const final = settings.modifyRequestSettings?.(request) ?? request;
  let response: Response;
  try {
    response = await fetch(final.url, {
      method: final.method,
      headers: final.headers,
      credentials: final.withCredentials ? 'include' : 'same-origin',
      ...(final.data === undefined ? {} : { body: JSON.stringify(final.data) }),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw cancelled();
    throw new NetworkError('ERR_CLIENT_NETWORK', `The service could not be reached (${String(error)}).`);
  }
  if (UNREACHABLE.has(response.status)) throw new NetworkError('ERR_CLIENT_NETWORK', `The service answered HTTP ${response.status}.`);
  const answer = (await response.json().catch(() => ({}))) as ServiceAnswer;
  if (!response.ok || answer.status === 'error') {
    throw new ClientError(answer.code ? passedOn(answer.code) : `ERR_CLIENT_HTTP_${response.status}`, answer.message ?? `The service answered HTTP ${response.status}.`, { answer });
  }
  return answer;
}

export const post = (url: string, data: Record<string, unknown>, withCredentials: boolean): RequestSettings => ({
  method: 'POST',
  url,
  headers: { ...JSON_HEADERS },
  withCredentials,
  data,
});

export const get = (url: string, withCredentials: boolean): RequestSettings => ({ method: 'GET', url, headers: { ...JSON_HEADERS }, withCredentials });
