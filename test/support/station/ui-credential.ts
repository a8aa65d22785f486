import { uiSessionSchema } from '../../../src/core/schemas/admin-api.js';

/**
 * Headers of a station UI page: redeems the one-time launch token of `uiUrl` (its `#launch=` fragment) the way
 * the page does, and returns the credential with the station's own Origin, as every /admin/api call needs.
 */
export async function uiHeaders(uiUrl: string): Promise<{ authorization: string; origin: string }> {
  const url = new URL(uiUrl);
  const launchToken = new URLSearchParams(url.hash.slice(1)).get('launch');
  if (!launchToken) throw new Error(`no launch token in ${uiUrl}`);
  const response = await fetch(new URL('/admin/api/session', url.origin), {
    method: 'POST',
    headers: { origin: url.origin, 'content-type': 'application/json' },
    body: JSON.stringify({ launchToken }),
  });
  if (!response.ok) throw new Error(`redeeming the launch token answered ${response.status}: ${await response.text()}`);
  const { credential } = uiSessionSchema.parse(await response.json());
  return { authorization: `Bearer ${credential}`, origin: url.origin };
}
