import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import type { TestStation } from '../support/station/test-station.js';
import type { Integrator } from '../support/browser/iframe-integrator.js';
import { BOTH_CLIENTS, runModule, startClientTestbed, stationIdentitySettings, type ClientTestbed, type ClientGlobal, type ModuleRunRequest } from '../support/browser/client-integrator.js';

const SECRET = 'shop-api-secret-0123456789';

// The station's browser client and the published one on the same integrator page (another 127.0.0.1 port),
// against a headless station: identification through the station's integrator-server endpoints.
describe('browser client: identification, settings, cancel, network errors', () => {
  let testbed: ClientTestbed | undefined;
  let station: TestStation;
  let integrator: Integrator;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    testbed = await startClientTestbed({ secret: SECRET, sandboxTimings: { userActionMs: 300, userTimeoutMs: 1_500 } });
    ({ station, integrator, browser, page } = testbed);
  });
  afterAll(async () => {
    await testbed?.close();
  });

  const identify = (client: ClientGlobal, module: string, options: Record<string, unknown>, extra: Partial<ModuleRunRequest> = {}) =>
    runModule(page, {
      client,
      kind: 'identification',
      module,
      settings: stationIdentitySettings(station.baseUrl),
      options,
      ...extra,
    });

  it('is served at /client/ as IIFE, ESM and typings, with its version, content types and cache headers', async () => {
    const { version } = JSON.parse(await readFile('src/client/package.json', 'utf8')) as { version: string };
    for (const [file, type] of [['service-browser-client.js', 'text/javascript'], ['service-browser-client.mjs', 'text/javascript'], ['service-browser-client.d.ts', 'text/plain']] as const) {
      const response = await fetch(`${station.baseUrl}/client/${file}`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type')).toContain(type);
      expect(response.headers.get('cache-control')).toBe('public, max-age=300, must-revalidate');
      const body = await response.text();
      expect(body.startsWith(`/*! service-browser-client ${version} `)).toBe(true);
      const again = await fetch(`${station.baseUrl}/client/${file}`, { headers: { 'if-none-match': response.headers.get('etag')! } });
      expect(again.status).toBe(304);
    }
    expect((await fetch(`${station.baseUrl}/client/other.js`)).status).toBe(404);
    expect(await page.evaluate(() => (window as unknown as { serviceBrowserClient: { version: string } }).serviceBrowserClient.version)).toBe(version);
  });

  it('the SRI hash in docs/browser-client.md is the served IIFE’s', async () => {
    const body = Buffer.from(await (await fetch(`${station.baseUrl}/client/service-browser-client.js`)).arrayBuffer());
    const integrity = `sha384-${createHash('sha384').update(body).digest('base64')}`;
    expect(await readFile('docs/browser-client.md', 'utf8')).toContain(integrity);
  });

  it('has every module key of the published client 2.140.0 and the same method list', async () => {
    const keys = await page.evaluate(() => {
      const list = (name: string) => {
        const client = (window as unknown as Record<string, { createClient(settings: object): Record<string, object> & { getAllMethods(): Record<string, Array<{ handlingModule?: string }>> } }>)[name]!.createClient({ clientId: 'shop' });
        const methods = client.getAllMethods();
        return {
          identification: Object.keys(client.identification!).filter((key) => key !== 'undefined'),
          signature: Object.keys(client.signature!),
          methods: [...methods.identification!, ...methods.signature!].filter((method) => method.handlingModule),
          frozen: Object.isFrozen(client),
        };
      };
      return { ours: list('serviceBrowserClient'), published: list('eidEasyBrowserClient') };
    });
    expect(keys.ours.identification).toHaveLength(31);
    expect(keys.ours.signature).toHaveLength(86);
    expect(keys.ours.identification).toEqual(keys.published.identification);
    expect(keys.ours.signature).toEqual(keys.published.signature);
    expect(keys.ours.methods).toEqual(keys.published.methods);
    expect(keys.ours.frozen).toBe(true);
  });

  for (const client of BOTH_CLIENTS) {
    it(`${client}: Smart-ID identification of the documented demo account 10101010005`, async () => {
      const outcome = await identify(client, 'smartId', { idcode: '10101010005' });
      expect(outcome.calls).toEqual(['started', 'success', 'finished']);
      expect(outcome.started).toMatchObject({ data: { challenge: expect.stringMatching(/^\d{4}$/) } });
      expect(outcome.result).toMatchObject({ data: { status: 'OK', idcode: '10101010005', firstname: 'DEMO', current_login_method: 'smartid' } });
    });

    it(`${client}: Mobile-ID identification of 60001019906 / +37200000766`, async () => {
      const outcome = await identify(client, 'mobileId', { idcode: '60001019906', phone: '+37200000766' });
      expect(outcome.calls).toEqual(['started', 'success', 'finished']);
      expect(outcome.result).toMatchObject({ data: { status: 'OK', idcode: '60001019906', current_login_method: 'mid-login' } });
    });

    it(`${client}: Freja eID and Evrotrust identification through the simulated app`, async () => {
      const freja = await identify(client, 'frejaEid', { email: 'person@example.com', countryCode: 'SE' });
      expect(freja.calls).toEqual(['started', 'success', 'finished']);
      expect(freja.result).toMatchObject({ data: { status: 'OK', lastname: 'TESTPERSON', current_login_method: 'freja-eid-login' } });
      const evrotrust = await identify(client, 'evrotrust', { phone: '+37200000766', countryCode: 'BG' });
      expect(evrotrust.result).toMatchObject({ data: { status: 'OK', idcode: '60001019906', current_login_method: 'evrotrust-login' } });
    });

    it(`${client}: EUDI wallet identification gives the wallet's QR data to started and the PID as verified_claims`, async () => {
      const outcome = await identify(client, 'eudiWallet', { countryCode: 'AT', documentType: 'pid' });
      expect(outcome.calls).toEqual(['started', 'success', 'finished']);
      const request = expect.stringMatching(/^openid4vp:\/\/\?client_id=/);
      expect(outcome.started).toMatchObject({ data: { qr_code: request, redirect_uri: request } });
      expect(outcome.result).toMatchObject({
        data: { status: 'OK', idcode: 'ATSBX0001', current_login_method: 'at-eudi-wallet-login', verified_claims: { verification: { trust_framework: 'eidas' }, claims: { family_name: 'Musterfrau' } } },
      });
    });

    it(`${client}: a Smart-ID user who refuses fails with the service's message`, async () => {
      const outcome = await identify(client, 'smartId', { idcode: '30403039917' });
      expect(outcome.calls).toEqual(['started', 'fail', 'finished']);
      // The person declined: the station's client says so with isCancel (the published one does not).
      if (client === 'serviceBrowserClient') expect(outcome.error?.isCancel).toBe(true);
      else expect(outcome.error?.isCancel).toBeFalsy();
      expect(outcome.error?.userMessage).toMatch(/refused/i);
    });

    it(`${client}: a Smart-ID user who never answers fails with the timeout`, async () => {
      const outcome = await identify(client, 'smartId', { idcode: '30403039928' });
      expect(outcome.calls).toEqual(['started', 'fail', 'finished']);
      expect(outcome.error?.userMessage).toMatch(/time/i);
    });

    it(`${client}: an unknown account fails at start with the service's message and details`, async () => {
      const outcome = await identify(client, 'smartId', { idcode: '99999999999' });
      expect(outcome.calls).toEqual(['fail', 'finished']);
      expect(outcome.error?.userMessage).toMatch(/No Smart-ID sandbox account/);
    });
  }

  it('serviceBrowserClient: invalid settings throw the published client’s messages', async () => {
    const messages = await page.evaluate(() => {
      const { createClient } = (window as unknown as { serviceBrowserClient: { createClient(settings: object): { identification: Record<string, { start(options: object): unknown }> } } }).serviceBrowserClient;
      const attempt = (action: () => unknown): string => {
        try {
          action();
          return 'no error';
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      };
      const client = createClient({ clientId: 'shop', apiEndpoints: { identityStart: () => '/s', identityFinish: () => '/f' } });
      return [
        attempt(() => createClient({})),
        attempt(() => createClient({ clientId: 42 })),
        attempt(() => client.identification.smartId!.start({ countryCode: 'EE' })),
        attempt(() => client.identification.smartId!.start({ idcode: '1', countryCode: 'EE', success: 'yes' })),
      ];
    });
    expect(messages).toEqual([
      'TypeError: Missing required setting "clientId"',
      'TypeError: Expected "clientId" to be type of "string"',
      'TypeError: Missing required setting "idcode"',
      'TypeError: Expected "success" to be type of "function"',
    ]);
  });

  it('serviceBrowserClient: googleWallet fails at once with the station’s answer (it has no Google Wallet method), before framing anything', async () => {
    const outcome = await identify('serviceBrowserClient', 'googleWallet', { countryCode: 'US', documentType: 'mdl', iframeHolder: true });
    expect(outcome.calls).toEqual(['fail', 'finished']);
    expect(outcome.error?.userMessage).toBe('This station has no identification method "google-wallet-login".');
    expect(await page.locator('#holder iframe').count()).toBe(0);
  });

  it('serviceBrowserClient: cancel() stops polling and fails with isCancel, then finished', async () => {
    const outcome = await identify('serviceBrowserClient', 'smartId', { idcode: '30403039928' }, { cancelWhenStarted: true });
    expect(outcome.calls).toEqual(['started', 'fail', 'finished']);
    expect(outcome.error?.isCancel).toBe(true);
  });

  for (const [failures, expected] of [[3, 'success'], [4, 'fail']] as const) {
    it(`serviceBrowserClient: ${failures} network errors while polling ${expected === 'success' ? 'are tolerated' : 'fail the flow'}`, async () => {
      let dropped = 0;
      await page.route('**/integrator/shop/identity/finish', (route) => (dropped++ < failures ? route.abort('connectionreset') : route.fallback()));
      try {
        const outcome = await identify('serviceBrowserClient', 'smartId', { idcode: '10101010005' });
        expect(outcome.calls).toEqual(['started', expected, 'finished']);
        expect(dropped).toBeGreaterThanOrEqual(failures);
      } finally {
        await page.unroute('**/integrator/shop/identity/finish');
      }
    });
  }
});
