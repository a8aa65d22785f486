// Calls to the identity API the way an integrator's server makes them (JSON, no browser Origin).
export interface ApiResponse {
  status: number;
  body: Record<string, unknown>;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export function identityApi(baseUrl: string, clientId: string, secret: string) {
  return {
    start: (method: string, body: Record<string, unknown> = {}) => postJson(`${baseUrl}/api/identity/${clientId}/${method}/start`, { client_id: clientId, secret, ...body }),
    complete: (method: string, token: string, timeout = 0, extra: Record<string, unknown> = {}) =>
      postJson(`${baseUrl}/api/identity/${clientId}/${method}/complete`, { client_id: clientId, secret, token, timeout, ...extra }),
  };
}
