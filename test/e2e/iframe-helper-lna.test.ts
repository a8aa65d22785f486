import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../support/browser/browser.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { run } from '../support/signing/signing-validators.js';
import { runModule } from '../support/browser/client-integrator.js';

/**
 * Chrome's Local Network Access (Chromium 142 and later): a public https page may frame the station on
 * 127.0.0.1 only with `allow="loopback-network"` on the iframe and the user's (or the enterprise policy's)
 * permission. `--ip-address-space-overrides` makes this machine's https integrator page count as public.
 */
describe('iframe helper under Local Network Access', () => {
  let dir: string;
  let station: TestStation;
  let server: Server;
  let origin: string;
  let browser: Browser;

  const CLIENT = new URL('../../out/client/service-browser-client.js', import.meta.url);
  let clientScript: Buffer;
  /** The integrator's page with the station's browser client, served by the integrator as the npm package lets it. */
  const clientPage = '<!doctype html><script src="/client.js"></script><div id="holder" style="height:80px"></div>';

  const page = (allow: boolean): string =>
    `<!doctype html><script>window.helperMessages=[];addEventListener('message',e=>helperMessages.push(e.data))</script>` +
    `<iframe ${allow ? 'allow="loopback-network"' : ''} referrerpolicy="origin" src="${station.baseUrl}/web-element/os-broker/shop/id-signature"></iframe>`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lna-'));
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']);
    station = await startTestStation();
    clientScript = await readFile(CLIENT);
    server = createServer({ key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) }, (request, response) => {
      if (request.url === '/client.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(clientScript);
      if (request.url === '/with-client') return response.writeHead(200, { 'content-type': 'text/html' }).end(clientPage);
      response.writeHead(200, { 'content-type': 'text/html' }).end(page(request.url === '/with-allow'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [origin] });
    browser = await launchChromium(['--ignore-certificate-errors', `--ip-address-space-overrides=127.0.0.1:${(server.address() as AddressInfo).port}=public`]);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  /**
   * Opens the integrator page in a fresh context, optionally with the loopback permission granted to it, and
   * answers what became of the frame: its URL once loaded (the station's page, or Chromium's error page) and
   * whether the helper announced itself.
   */
  const contextWith = async (setting: 'granted' | 'denied' | undefined): Promise<BrowserContext> => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    if (setting) {
      const cdp = await browser.newBrowserCDPSession();
      const { browserContextIds } = (await cdp.send('Target.getBrowserContexts')) as { browserContextIds: string[] };
      // Chromium 156 knows the permission under its new name and its earlier one; grant what the user's click grants.
      for (const browserContextId of browserContextIds) {
        for (const name of ['loopback-network', 'local-network-access']) {
          await cdp.send('Browser.setPermission', { permission: { name }, setting, origin, browserContextId });
        }
      }
      // Permission overrides live as long as the CDP session that set them: it stays attached until the context closes.
    }
    return context;
  };

  const frameOutcome = async (path: string, granted: boolean): Promise<{ frameUrl: string; announced: boolean }> => {
    const context = await contextWith(granted ? 'granted' : undefined);
    const tab = await context.newPage();
    await tab.goto(`${origin}${path}`);
    await tab.waitForLoadState('load');
    const frameUrl = tab.frames()[1]?.url() ?? '';
    const announced = frameUrl.startsWith(station.baseUrl)
      ? await tab
          .waitForFunction(() => (window as unknown as { helperMessages: Array<{ operation?: string }> }).helperMessages.some((m) => m.operation === 'ready'))
          .then(() => true)
      : false;
    await context.close();
    return { frameUrl, announced };
  };

  it('is blocked for a public page without allow="loopback-network"', async () => {
    expect(await frameOutcome('/', false)).toEqual({ frameUrl: expect.stringMatching(/^chrome-error:/), announced: false });
  });

  it('is blocked with the attribute until the user grants the permission', async () => {
    expect(await frameOutcome('/with-allow', false)).toEqual({ frameUrl: expect.stringMatching(/^chrome-error:/), announced: false });
  });

  it('loads and announces itself with the attribute and the permission granted', async () => {
    expect(await frameOutcome('/with-allow', true)).toEqual({ frameUrl: expect.stringContaining('/web-element/os-broker/shop/'), announced: true });
  });

  /** The station's own browser client signing from a public page, with the permission set as given. */
  const clientOutcome = async (setting: 'denied' | 'granted', stationUrl = station.baseUrl): Promise<Awaited<ReturnType<typeof runModule>> & { frameTitle: string | null }> => {
    const context = await contextWith(setting);
    const tab = await context.newPage();
    await tab.goto(`${origin}/with-client`);
    const outcome = await runModule(tab, {
      client: 'serviceBrowserClient',
      kind: 'signature',
      module: 'idCardSignature',
      settings: { clientId: 'shop', docId: 'a'.repeat(32), countryCode: 'EE', base: stationUrl },
      options: { countryCode: 'EE', iframeHolder: true },
    });
    const frameTitle = await tab.locator('#holder iframe').getAttribute('title');
    await context.close();
    return { ...outcome, frameTitle };
  };

  it('the station’s browser client tells the user at once when the browser denies the permission', async () => {
    const started = performance.now();
    const outcome = await clientOutcome('denied');
    expect(outcome.calls).toEqual(['fail', 'finished']);
    expect(outcome.error).toMatchObject({ isCancel: false, userMessage: expect.stringContaining('access to devices on your local network') });
    expect(performance.now() - started).toBeLessThan(5_000);
    // The frame has an accessible name, which screen readers announce (axe: frame-title).
    expect(outcome.frameTitle).toBe('Signing helper: certificates and signing on this computer');
  });

  it('the station’s browser client says what to check when the helper never announces itself (station not running)', async () => {
    // The permission is granted, but nothing listens where the page looks for the station.
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const outcome = await clientOutcome('granted', nowhere);
    expect(outcome.calls).toEqual(['fail', 'finished']);
    expect(outcome.error).toMatchObject({ isCancel: false, userMessage: expect.stringContaining('Check that it is running on this computer') });
  });
});
