import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { TestStation } from '../support/station/test-station.js';
import type { Integrator } from '../support/browser/iframe-integrator.js';
import { BOTH_CLIENTS, runModule, startClientTestbed, stationIdentitySettings, type ClientGlobal, type ClientTestbed } from '../support/browser/client-integrator.js';
import { downloadSigned, prepareDocument } from '../support/signing/signing-session-client.js';
import { createNssDb, pdfsig } from '../support/signing/signing-validators.js';

const SECRET = 'shop-api-secret-0123456789';

// Redirect-based identification and signing: both clients navigate to the station's simulated provider page, the
// user approves or denies there, and the browser comes back to the integrator's redirect URI.
describe('browser client: redirect-based methods through the simulated provider page', () => {
  let dir: string;
  let testbed: ClientTestbed | undefined;
  let station: TestStation;
  let integrator: Integrator;
  let browser: Browser;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'client-redirect-'));
    testbed = await startClientTestbed({ secret: SECRET });
    ({ station, integrator, browser } = testbed);
  });
  afterAll(async () => {
    await testbed?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A wait that, when it fails, says where the page is and what it shows. */
  const explained = (page: Page, wait: Promise<unknown>): Promise<unknown> =>
    wait.catch(async (error: unknown) => {
      throw new Error(`at ${page.url()}: ${await page.content()}`, { cause: error });
    });
  /** Starts a module with the client's default redirect, answers the provider page, and returns where it lands. */
  const throughProvider = async (client: ClientGlobal, kind: 'identification' | 'signature', module: string, settings: Record<string, string>, decision: 'Approve' | 'Deny'): Promise<URL> => {
    const page: Page = await browser.newPage();
    try {
      await page.goto(`${integrator.origin}/`);
      await page.evaluate(
        ([name, kindName, key, values, base]) => {
          const factory = (window as unknown as Record<string, { createClient(settings: object): Record<string, Record<string, { start(options: object): void }>> }>)[name]!;
          const client = factory.createClient({ ...values, sandbox: true, apiEndpoints: { base: () => base } });
          client[kindName]![key]!.start({});
        },
        [client, kind, module, settings, station.baseUrl] as const,
      );
      await explained(page, page.waitForURL((url) => url.origin === station.baseUrl, { timeout: 10_000 }));
      await explained(page, page.getByText('Sandbox simulator: no real provider is involved.').waitFor({ timeout: 10_000 }));
      await page.getByRole('button', { name: decision }).click();
      await explained(page, page.waitForURL((url) => url.pathname === '/back', { timeout: 10_000 }));
      return new URL(page.url());
    } finally {
      await page.close();
    }
  };
  const integration = () => ({ baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET });
  const prepare = (): Promise<string> => prepareDocument(integration());
  const identitySettings = () => ({ clientId: 'shop', countryCode: 'SE', redirectUri: `${integrator.origin}/back`, oauthParamState: 'st-123' });

  for (const client of BOTH_CLIENTS) {
    it(`${client}: seBankId identification, approved, comes back with a code the integrator's server completes`, async () => {
      const back = await throughProvider(client, 'identification', 'seBankId', identitySettings(), 'Approve');
      expect(back.searchParams.get('state')).toBe('st-123');
      const code = back.searchParams.get('code');
      expect(code).toBeTruthy();
      const complete = await fetch(`${station.baseUrl}/api/identity/shop/swedish-bankid-login/complete`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'shop', secret: SECRET, token: code }),
      });
      expect(await complete.json()).toMatchObject({ status: 'OK', firstname: 'REDIRECT', lastname: 'TESTPERSON', current_login_method: 'swedish-bankid-login' });
    });

    it(`${client}: itsme identification, denied, comes back with error=access_denied`, async () => {
      const back = await throughProvider(client, 'identification', 'itsme', { ...identitySettings(), countryCode: 'BE' }, 'Deny');
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('code')).toBeNull();
    });

    it(`${client}: seBankIdSignature, approved, signs the PDF (pdfsig accepts it with the test CA)`, async () => {
      const docId = await prepare();
      const back = await throughProvider(client, 'signature', 'seBankIdSignature', { clientId: 'shop', docId, countryCode: 'SE' }, 'Approve');
      expect(Object.fromEntries(back.searchParams)).toEqual({ doc_id: docId, status: 'OK' });
      const { file, body } = await downloadSigned(integration(), docId);
      expect(body.signing_method).toBe('swedish-bankid-signature');
      const path = join(dir, `redirect-${client}.pdf`);
      await writeFile(path, file);
      const testCa = await (await fetch(`${station.baseUrl}/sandbox/test-ca.pem`)).text();
      const report = await pdfsig(await createNssDb(join(dir, `nss-${client}`), testCa), path);
      expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true });
    });

    it(`${client}: seBankIdSignature, denied, signs nothing`, async () => {
      const docId = await prepare();
      const back = await throughProvider(client, 'signature', 'seBankIdSignature', { clientId: 'shop', docId, countryCode: 'SE' }, 'Deny');
      expect(back.searchParams.get('error')).toBe('access_denied');
      const status = await fetch(`${station.baseUrl}/api/signatures/signing-session/status`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'shop', doc_id: docId }),
      });
      expect(await status.json()).toMatchObject({ signing_session_status: 'OPEN' });
    });
  }

  for (const client of BOTH_CLIENTS) {
    it(`${client}: zealIdSignature, approved, goes through the provider page and signs the PDF`, async () => {
      const docId = await prepare();
      const back = await throughProvider(client, 'signature', 'zealIdSignature', { clientId: 'shop', docId, countryCode: 'EE' }, 'Approve');
      expect(Object.fromEntries(back.searchParams)).toEqual({ doc_id: docId, status: 'OK' });
      const { body } = await downloadSigned(integration(), docId);
      expect(body).toMatchObject({ signing_method: 'zealid-signature', signer_firstname: 'REDIRECT', signer_lastname: 'TESTPERSON' });
    });
  }

  /**
   * Starts zealId in the page, answers the framed provider page, and returns what the client's callbacks got.
   * `forged`: a code the page posts to itself first, as a script other than the provider could.
   */
  const zealIdIdentification = async (client: ClientGlobal, decision: 'Approve' | 'Deny', forged?: string) => {
    const page = await browser.newPage();
    try {
      await page.goto(`${integrator.origin}/`);
      const outcome = runModule(page, { client, kind: 'identification', module: 'zealId', settings: stationIdentitySettings(station.baseUrl), options: { iframeHolder: true } });
      const approve = page.frameLocator('#holder iframe').getByRole('button', { name: decision });
      await approve.waitFor();
      if (forged) await page.evaluate((message) => window.postMessage(message, '*'), forged);
      const frameTitle = await page.locator('#holder iframe').getAttribute('title');
      await approve.click();
      return { ...(await outcome), frameTitle };
    } finally {
      await page.close();
    }
  };

  for (const client of BOTH_CLIENTS) {
    it(`${client}: zealId identification in the framed provider page, approved, identifies the person`, async () => {
      const outcome = await zealIdIdentification(client, 'Approve');
      expect(outcome.calls).toEqual(['success', 'finished']);
      expect(outcome.result).toMatchObject({ data: { status: 'OK', firstname: 'REDIRECT', lastname: 'TESTPERSON', current_login_method: 'zealid-login' } });
      // The station's client names the frame for screen readers (axe: frame-title); the published one does not.
      if (client === 'serviceBrowserClient') expect(outcome.frameTitle).toBe('Identity provider');
    });

    it(`${client}: zealId identification, denied, fails and identifies no one`, async () => {
      const outcome = await zealIdIdentification(client, 'Deny');
      expect(outcome.calls).toEqual(['fail', 'finished']);
      expect(outcome.result).toBeUndefined();
      if (client === 'serviceBrowserClient') expect(outcome.error?.message).toContain('access_denied');
    });
  }

  it('serviceBrowserClient: zealId takes the code only from the provider frame, not a message the page posts itself', async () => {
    const outcome = await zealIdIdentification('serviceBrowserClient', 'Approve', `${station.baseUrl}/?code=forged-code`);
    expect(outcome.calls).toEqual(['success', 'finished']);
    expect(outcome.result).toMatchObject({ data: { status: 'OK', lastname: 'TESTPERSON' } });
  });

  it('the zealId provider page is framed only by an origin registered for the client, and its answer goes only there', async () => {
    const framed = (parentOrigin: string) => fetch(`${station.baseUrl}/oauth/frame/zealid-login?${new URLSearchParams({ client_id: 'shop', parent_origin: parentOrigin })}`);
    const stranger = await framed('http://127.0.0.1:9');
    expect(stranger.status).toBe(400);
    expect(await stranger.json()).toMatchObject({ code: 'ERR_INPUT_INVALID', errors: { parent_origin: ['not registered'] } });
    const redirectMethod = await fetch(`${station.baseUrl}/oauth/frame/swedish-bankid-login?${new URLSearchParams({ client_id: 'shop', parent_origin: integrator.origin })}`);
    expect(redirectMethod.status).toBe(400);
    const allowed = await framed(integrator.origin);
    expect(allowed.headers.get('content-security-policy')).toContain(`frame-ancestors ${integrator.origin};`);
    const iframeUrl = await fetch(`${station.baseUrl}/api/identity/shop/zealid/get_iframe_url`, { headers: { origin: 'http://127.0.0.1:9' } });
    expect(iframeUrl.status).toBe(403);
  });

  for (const client of BOTH_CLIENTS) {
    it(`${client}: a redirect callback gets the provider page's address instead of navigating`, async () => {
      const page = await browser.newPage();
      await page.goto(`${integrator.origin}/`);
      const outcome = await runModule(page, {
        client,
        kind: 'signature',
        module: 'seBankIdSignature',
        settings: { clientId: 'shop', docId: await prepare(), countryCode: 'SE', base: station.baseUrl },
        captureRedirect: true,
      });
      expect(outcome.calls).toEqual(['success', 'finished']);
      expect(outcome.redirected).toMatchObject({ data: { status: 'OK', redirect_uri: expect.stringMatching(new RegExp(`^${station.baseUrl}/sandbox/provider/sign/`)) } });
      expect(page.url()).toBe(`${integrator.origin}/`);
      await page.close();
    });
  }
});
