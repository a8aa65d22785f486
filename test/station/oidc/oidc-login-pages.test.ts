import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { startStationWithRelyingParty, stopStationWithRelyingParty } from '../../support/oidc/oidc-station-with-relying-party.js';
import type { RelyingParty } from '../../support/oidc/oidc-relying-party.js';

describe('login pages', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  beforeAll(async () => {
    ({ station, rp } = await startStationWithRelyingParty());
  });
  afterAll(() => stopStationWithRelyingParty(station, rp));

  /** Starts an authorization and returns the login page's path and the browser's cookies. */
  async function openLogin(): Promise<{ path: string; cookie: string }> {
    const url = new URL('/oidc/oauth/authorize', station.baseUrl);
    for (const [name, value] of Object.entries({ response_type: 'code', client_id: rp.clientId, redirect_uri: rp.redirectUri, scope: 'openid', state: 's', nonce: 'n' })) url.searchParams.set(name, value);
    const response = await fetch(url, { redirect: 'manual' });
    const cookie = response.headers.getSetCookie().map((header) => header.split(';')[0]).join('; ');
    return { path: response.headers.get('location')!, cookie };
  }

  it('serves the method choice with a strict CSP and no script', async () => {
    const { path, cookie } = await openLogin();
    const response = await fetch(new URL(path, station.baseUrl), { headers: { cookie } });
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|script-src/);
    const page = await response.text();
    expect(page).not.toMatch(/<script|\son[a-z]+=/i);
    for (const method of ['local-token-login', 'smartid', 'mid-login', 'at-eudi-wallet-login']) expect(page).toContain(`data-method="${method}"`);
    expect(page).toContain(new URL(rp.redirectUri).origin);
  });

  it('does not show another browser’s login (no interaction cookie)', async () => {
    const { path } = await openLogin();
    const response = await fetch(new URL(path, station.baseUrl));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).not.toContain('data-method=');
  });

  it('refuses a form post from another origin', async () => {
    const { path, cookie } = await openLogin();
    const response = await fetch(new URL(`${path}/start`, station.baseUrl), {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'method=smartid&idcode=30303039914&country=EE',
    });
    expect(response.status).toBe(403);
  });

  it('shows input errors on the choice page', async () => {
    const { path, cookie } = await openLogin();
    const post = (body: string) =>
      fetch(new URL(`${path}/start`, station.baseUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, origin: station.baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    const unknown = await post('method=no-such-method');
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toMatch(/class="error"[^>]*>This identification method is not available/);
    const notSandbox = await post('method=smartid&idcode=%3Cscript%3E&country=EE');
    expect(notSandbox.status).toBe(404);
    const page = await notSandbox.text();
    expect(page).toContain('&lt;script&gt;');
    expect(page).not.toContain('<script>');
  });
});
