import { StationError } from '../../core/errors/station-error.js';

export interface ForwardedResponse {
  status: number;
  body: unknown;
}

export interface IdentityForwarderOptions {
  /** A real service's base URL ({base_url} / {test_base_url}); without it, the station's embedded service. */
  remoteBaseUrl?: string | undefined;
  /** The station's own address, for the embedded service: the call goes through every guard, as any other would. */
  embedded: () => string;
  /** Longest the service may take (its long polls included). */
  timeoutMs?: number;
}

/** Sends an identity start/complete call, with credentials already added, to the service and returns its answer. */
export class IdentityForwarder {
  readonly #options: IdentityForwarderOptions;

  constructor(options: IdentityForwarderOptions) {
    this.#options = options;
  }

  async forward(clientId: string, method: string, step: 'start' | 'complete', body: Record<string, unknown>): Promise<ForwardedResponse> {
    const path = `api/identity/${encodeURIComponent(clientId)}/${encodeURIComponent(method)}/${step}`;
    const payload = JSON.stringify(body);
    const timeoutMs = this.#options.timeoutMs ?? 40_000;
    const baseUrl = this.#options.remoteBaseUrl ?? this.#options.embedded();
    const url = new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: payload,
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new StationError('ERR_INTEGRATOR_SERVICE_UNREACHABLE', `The identity service at ${url.origin} did not answer.`, { status: 502, retriable: true, cause });
    }
    const text = await response.text();
    const parsed = parseBody(text);
    if (parsed === undefined) {
      throw new StationError('ERR_INTEGRATOR_SERVICE_BAD_RESPONSE', `The identity service at ${url.origin} answered ${response.status} without a JSON body.`, { status: 502, retriable: true });
    }
    return { status: response.status, body: parsed };
  }
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
