import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { startOidcTestStation, type OidcTestStation } from '../../support/oidc/oidc-test-station.js';
import { createRelyingParty, type RelyingParty } from '../../support/oidc/oidc-relying-party.js';
import { launchChromium } from '../../support/browser/browser.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm } from '../../support/pkcs11/pkcs11-softhsm.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('OIDC login in Chromium, relying party openid-client', () => {
  let station: OidcTestStation;
  let rp: RelyingParty;
  let browser: Browser;
  let softhsm: SoftHsm;
  let scratch: string;
  beforeAll(async () => {
    // A real ID card stand-in: SoftHSM2 with an RSA authentication key and its certificate from a trusted test CA.
    softhsm = await createSoftHsm();
    await softhsm.createToken('ID card', '1234', [
      { id: '01', algorithm: 'RSA-2048', usage: 'authentication', subject: 'CN=JÕEORG\\,JAAK-KRISTJAN\\,38001085718,2.5.4.4=JÕEORG,2.5.4.42=JAAK-KRISTJAN,2.5.4.5=PNOEE-38001085718,C=EE' },
    ]);
    scratch = await mkdtemp(join(tmpdir(), 'oidc-browser-login-'));
    await writeFile(join(scratch, 'issuers.pem'), softhsm.ca.pem);
    station = await startOidcTestStation({ config: { identity: { trustedIssuers: [join(scratch, 'issuers.pem')] } } }, { tokenSources: [softHsmTokenSource({ loginIdleMs: 0 })] });
    rp = await createRelyingParty(station, { jwksUri: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await rp?.close();
    await station?.dispose();
    await softhsm?.dispose();
    await rm(scratch, { recursive: true, force: true });
  });

  async function begin(scope: string): Promise<{ page: Page; nonce: string; state: string; violations: string[] }> {
    const nonce = client.randomNonce();
    const state = client.randomState();
    const page = await (await browser.newContext()).newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(client.buildAuthorizationUrl(rp.config, { redirect_uri: rp.redirectUri, scope, state, nonce }).href);
    await expect.poll(() => page.url()).toMatch(/\/oidc\/interaction\//);
    return { page, nonce, state, violations };
  }

  /** Answers the consent page, which names the relying party, where the answer goes and what it receives. */
  async function allow(page: Page): Promise<void> {
    const consent = page.locator('form.consent');
    await consent.waitFor({ timeout: 15_000 });
    expect(await page.locator('h1').textContent()).toContain(rp.clientId);
    expect(await page.locator('.origin').textContent()).toContain(new URL(rp.redirectUri).origin);
    await consent.locator('button[value="allow"]').click();
  }

  async function finish(page: Page, nonce: string, state: string) {
    await allow(page);
    await page.waitForURL((url) => url.href.startsWith(rp.redirectUri), { timeout: 15_000 });
    const callback = new URL(page.url());
    expect(callback.searchParams.get('state')).toBe(state);
    const tokens = await client.authorizationCodeGrant(rp.config, callback, { expectedNonce: nonce, expectedState: state, idTokenExpected: true });
    await page.context().close();
    return tokens.claims()!;
  }

  it('Smart-ID simulator: shows the code, then returns profile claims without verified_claims', async () => {
    const { page, nonce, state, violations } = await begin('openid profile pid');
    expect(await page.locator('h1').textContent()).toContain(rp.clientId);
    const form = page.locator('form[data-method="smartid"]');
    await form.locator('input[name="idcode"]').fill('30303039914');
    await form.locator('button').click();
    // The code is on screen before the simulated app confirms (the wait page shows it first, then polls).
    expect(await page.locator('#challenge').textContent()).toMatch(/^\d{4}$/);
    const claims = await finish(page, nonce, state);
    expect(claims).toMatchObject({ iss: station.baseUrl, aud: rp.clientId, nonce, sub: 'PNOEE-30303039914', name: 'OK TESTNUMBER', birthdate: '1903-03-03' });
    expect(claims.verified_claims).toBeUndefined();
    expect(violations).toEqual([]);
  });

  it('EUDI wallet simulator with scope pid: verified_claims per OpenID Identity Assurance', async () => {
    const { page, nonce, state } = await begin('openid profile pid');
    await page.locator('form[data-method="at-eudi-wallet-login"] button').click();
    const claims = await finish(page, nonce, state);
    expect(claims).toMatchObject({ sub: 'PNOAT-ATSBX0001', given_name: 'ERIKA', family_name: 'MUSTERFRAU', birthdate: '1964-08-12' });
    const verified = claims.verified_claims as { verification: Record<string, unknown>; claims: Record<string, unknown> };
    expect(verified.verification).toMatchObject({ trust_framework: 'eidas' });
    expect(Date.parse(String(verified.verification.time))).not.toBeNaN();
    expect(verified.claims).toMatchObject({ given_name: 'Erika', family_name: 'Musterfrau', birthdate: '1964-08-12', nationalities: ['AT'] });
  });

  it('EUDI wallet without scope pid: profile claims only', async () => {
    const { page, nonce, state } = await begin('openid profile');
    await page.locator('form[data-method="at-eudi-wallet-login"] button').click();
    const claims = await finish(page, nonce, state);
    expect(claims.given_name).toBe('ERIKA');
    expect(claims.verified_claims).toBeUndefined();
  });

  it('scope openid alone: no profile claims', async () => {
    const { page, nonce, state } = await begin('openid');
    await page.locator('form[data-method="at-eudi-wallet-login"] button').click();
    const claims = await finish(page, nonce, state);
    expect(claims.sub).toBe('PNOAT-ATSBX0001');
    expect(claims.name).toBeUndefined();
    expect(claims.birthdate).toBeUndefined();
  });

  it('local ID card: signs the challenge with the authentication key, identity from the certificate', async () => {
    const asked = station.prompt.pins.length;
    const { page, nonce, state } = await begin('openid profile pid');
    await page.locator('form[data-method="local-token-login"] button').click();
    const claims = await finish(page, nonce, state);
    expect(claims).toMatchObject({ sub: 'PNOEE-38001085718', given_name: 'JAAK-KRISTJAN', family_name: 'JÕEORG', birthdate: '1980-01-08' });
    expect(claims.verified_claims).toBeUndefined();
    // The station verified the token's signature over its challenge with the certificate before naming anyone.
    expect(station.prompt.pins.length).toBe(asked + 1);
    expect(station.prompt.pins.at(-1)).toMatchObject({ tokenLabel: 'ID card' });
    expect(station.prompt.confirms.at(-1)).toMatchObject({ purpose: 'authenticate', clientId: rp.clientId });
    expect(station.prompt.confirms.at(-1)!.requester).toContain(new URL(rp.redirectUri).origin);
  });

  it('a refused Smart-ID request brings the user back to the choice with the reason, and no code', async () => {
    const { page } = await begin('openid');
    const form = page.locator('form[data-method="smartid"]');
    await form.locator('input[name="idcode"]').fill('30403039917');
    await form.locator('button').click();
    await expect.poll(() => page.locator('.error').textContent(), { timeout: 10_000 }).toMatch(/refused/);
    expect(page.url()).not.toContain(rp.redirectUri);
    await page.context().close();
  });

  it('cancel returns access_denied to the client with the state', async () => {
    const { page, state } = await begin('openid');
    await page.locator('a', { hasText: 'Cancel' }).click();
    await page.waitForURL((url) => url.href.startsWith(rp.redirectUri));
    const callback = new URL(page.url());
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('code')).toBeNull();
    await page.context().close();
  });

  it('single sign-on: a second relying party is asked before it gets the identity, the first is not asked again', async () => {
    const other = await createRelyingParty(station, { jwksUri: true });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      const authorize = async (party: RelyingParty, scope: string) => {
        const nonce = client.randomNonce();
        const state = client.randomState();
        await page.goto(client.buildAuthorizationUrl(party.config, { redirect_uri: party.redirectUri, scope, state, nonce }).href);
        return { nonce, state };
      };

      await authorize(rp, 'openid profile');
      await page.locator('form[data-method="at-eudi-wallet-login"] button').click();
      await allow(page);
      await page.waitForURL((url) => url.href.startsWith(rp.redirectUri), { timeout: 15_000 });

      const { state } = await authorize(other, 'openid profile');
      await page.locator('form.consent').waitFor();
      expect(await page.locator('h1').textContent()).toContain(other.clientId);
      expect(await page.locator('.origin').textContent()).toContain(new URL(other.redirectUri).origin);
      expect(await page.locator('.claims li').allTextContents()).toEqual(['an identifier for you (your personal code with its country)', 'your name and date of birth']);
      await page.locator('form.consent button[value="deny"]').click();
      await page.waitForURL((url) => url.href.startsWith(other.redirectUri));
      const denied = new URL(page.url());
      expect(denied.searchParams.get('error')).toBe('access_denied');
      expect(denied.searchParams.get('state')).toBe(state);
      expect(denied.searchParams.get('code')).toBeNull();

      const again = await authorize(rp, 'openid profile');
      await page.waitForURL((url) => url.href.startsWith(rp.redirectUri), { timeout: 15_000 });
      const tokens = await client.authorizationCodeGrant(rp.config, new URL(page.url()), { expectedNonce: again.nonce, expectedState: again.state, idTokenExpected: true });
      expect(tokens.claims()).toMatchObject({ aud: rp.clientId, given_name: 'ERIKA' });

      await authorize(rp, 'openid profile pid');
      await page.locator('form.consent').waitFor();
      expect(await page.locator('.claims li').count()).toBe(1);
      await context.close();
    } finally {
      await other.close();
    }
  });
});
