import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { startClientTestbed, runModule, type ClientTestbed } from '../support/browser/client-integrator.js';
import { startIntegrator, type Integrator } from '../support/browser/iframe-integrator.js';
import { prepareDocument } from '../support/signing/signing-session-client.js';

const SECRET = 'shop-api-secret-0123456789';

// Failures reach the page as the station client's typed error: a code, `isCancel` only for a person's (or the
// page's) cancel, a `userMessage` in the client's language that says what to do, and the technical detail apart.
describe('browser client: every failure a typed error the page can show', () => {
  let testbed: ClientTestbed;
  let stranger: Integrator;

  const sign = (page: ClientTestbed['page'], docId: string, language: string) =>
    runModule(page, { client: 'serviceBrowserClient', kind: 'signature', module: 'idCardSignature', settings: { clientId: 'shop', docId, countryCode: 'EE', language, base: testbed.station.baseUrl }, options: { iframeHolder: true } });

  /**
   * A page of the registered integrator's origin with `html` and nothing else (no client loaded), served from
   * 127.0.0.1 like the integrator's pages (a page the browser takes for public may not reach the station at all).
   */
  const plainPage = async (html: string): Promise<Page> => {
    const path = `/plain-${++plainPages}`;
    plainBodies.set(path, `<!doctype html><title>plain</title>${html}`);
    const page = await testbed.browser.newPage();
    await page.goto(`${plain.origin}${path}`);
    return page;
  };
  const plainBodies = new Map<string, string>();
  let plainPages = 0;
  let plain: { origin: string; server: Server };

  /** An address where nothing listens: a station that is not running. */
  const nowhere = async (): Promise<string> => {
    const closed = createNetServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    return url;
  };

  beforeAll(async () => {
    testbed = await startClientTestbed({ secret: SECRET });
    stranger = await startIntegrator({ scripts: [`${testbed.station.baseUrl}/client/service-browser-client.js`] });
    const server = createServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(plainBodies.get(request.url ?? '') ?? ''));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    plain = { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
    await testbed.station.data.clients.upsert({ clientId: 'plain', allowedOrigins: [plain.origin] }, Buffer.from(SECRET));
  });
  afterAll(async () => {
    await new Promise((resolve) => plain?.server.close(resolve));
    await stranger?.close();
    await testbed?.close();
  });

  it('a page on an origin the client did not register hears it at once, not as "station not running"', async () => {
    const docId = await prepareDocument({ baseUrl: testbed.station.baseUrl, clientId: 'shop', secret: SECRET });
    const page = await testbed.browser.newPage();
    await page.goto(`${stranger.origin}/`);
    const started = performance.now();
    const outcome = await sign(page, docId, 'lv');
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(outcome.calls).toEqual(['fail', 'finished']);
    expect(outcome.error).toMatchObject({
      isCancel: false,
      userMessage: 'Šai vietnei nav atļauts izmantot Signing Station šajā datorā. Sazinieties ar vietnes atbalstu.',
      message: expect.stringContaining(`${stranger.origin} is not one of this client's registered origins`),
    });
    await page.close();
  });

  it('the station tells any page whether its own origin is registered for the client', async () => {
    const registered = await testbed.page.evaluate(async (url) => (await (await fetch(url)).json()) as unknown, `${testbed.station.baseUrl}/web-element/api/embedder/shop`);
    expect(registered).toEqual({ registered: true });
    const unregistered = await (await testbed.browser.newPage()).goto(`${stranger.origin}/`).then(async (response) => response!.frame().evaluate(async (url) => (await (await fetch(url)).json()) as unknown, `${testbed.station.baseUrl}/web-element/api/embedder/shop`));
    expect(unregistered).toEqual({ registered: false });
  });

  it('cancel() is isCancel with the cancel text in the client’s language; the technical detail stays in message', async () => {
    const docId = await prepareDocument({ baseUrl: testbed.station.baseUrl, clientId: 'shop', secret: SECRET });
    const outcome = await runModule(testbed.page, {
      client: 'serviceBrowserClient',
      kind: 'signature',
      module: 'smartIdSignature',
      settings: { clientId: 'shop', docId, countryCode: 'EE', language: 'ru', base: testbed.station.baseUrl },
      options: { idcode: '10101010005' },
      cancelWhenStarted: true,
    });
    expect(outcome.calls).toEqual(['started', 'fail', 'finished']);
    expect(outcome.error).toMatchObject({ isCancel: true, userMessage: 'Отменено. Ничего не подписано и не передано.', message: 'Cancelled by the user.' });
  });

  it('the documented loader gives the client, or a client error when the script cannot load (station not running)', async () => {
    const loader = /```js\n(function loadSigningStationClient[\s\S]*?\n})\n/.exec(await readFile('docs/browser-client.md', 'utf8'))![1]!;
    const page = await plainPage('');
    await page.addScriptTag({ content: loader });
    const run = (src: string) =>
      page.evaluate(async (url) => {
        const load = (window as unknown as { loadSigningStationClient(src: string): Promise<{ version: string }> }).loadSigningStationClient;
        return load(url).then(
          (client) => ({ loaded: client.version }),
          (error: { name: string; code: string; isCancel: boolean; userMessage: string; message: string }) => ({ name: error.name, code: error.code, isCancel: error.isCancel, userMessage: error.userMessage, message: error.message }),
        );
      }, src);
    const stopped = await nowhere();
    expect(await run(`${stopped}/client/service-browser-client.js`)).toEqual({
      name: 'ClientError',
      code: 'ERR_CLIENT_SCRIPT_UNAVAILABLE',
      isCancel: false,
      userMessage: 'Signing Station is not answering. Check that it is running on this computer, then try again.',
      message: expect.stringContaining(`${stopped}/client/service-browser-client.js did not load`),
    });
    expect(await run(`${testbed.station.baseUrl}/client/service-browser-client.js`)).toEqual({ loaded: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    await page.close();
  });

  it('answers to the published client’s global name only when the script tag opts in, and never over a loaded client', async () => {
    const src = `${testbed.station.baseUrl}/client/service-browser-client.js`;
    const globals = (page: Page) =>
      page.evaluate(() => {
        const named = window as unknown as Record<string, unknown>;
        return { ours: typeof named.serviceBrowserClient, alias: named.eidEasyBrowserClient === undefined ? 'absent' : named.eidEasyBrowserClient === named.serviceBrowserClient ? 'ours' : 'other' };
      });
    const optedIn = await plainPage(`<script src="${src}" data-global="eidEasyBrowserClient"></script>`);
    expect(await globals(optedIn)).toEqual({ ours: 'object', alias: 'ours' });
    await optedIn.close();
    const plain = await plainPage(`<script src="${src}"></script>`);
    expect(await globals(plain)).toEqual({ ours: 'object', alias: 'absent' });
    await plain.close();
    const otherName = await plainPage(`<script src="${src}" data-global="anotherClient"></script>`);
    expect(await otherName.evaluate(() => 'anotherClient' in window)).toBe(false);
    await otherName.close();
    // The integrator page of the testbed loads the published client first: the alias leaves it in place.
    const both = await plainPage(`<script src="${testbed.integrator.origin}/client.js"></script><script src="${src}" data-global="eidEasyBrowserClient"></script>`);
    expect(await globals(both)).toEqual({ ours: 'object', alias: 'other' });
    await both.close();
  });

  it('a client-side userMessage in the page’s language when the station is not running', async () => {
    const docId = 'a'.repeat(32);
    const page = await plainPage(`<script src="${testbed.station.baseUrl}/client/service-browser-client.js"></script><div id="holder"></div>`);
    const outcome = await runModule(page, { client: 'serviceBrowserClient', kind: 'signature', module: 'idCardSignature', settings: { clientId: 'plain', docId, countryCode: 'EE', language: 'et', base: await nowhere() }, options: { iframeHolder: true } });
    expect(outcome.error).toMatchObject({ isCancel: false, userMessage: 'Signing Station ei vasta. Kontrolli, et see töötab selles arvutis, ja proovi uuesti.' });
    await page.close();
  });

  it('readCard errors reach a registered page with CORS: a wrong method is a 400 the page can read, not a network error', async () => {
    const answer = await testbed.page.evaluate(async (url) => {
      const response = await fetch(url, { credentials: 'include', headers: { accept: 'application/json' } });
      return { status: response.status, body: (await response.json()) as unknown };
    }, `${testbed.station.baseUrl}/api/identity/shop/xx-id-login/read-card`);
    expect(answer).toMatchObject({ status: 400, body: { status: 'error', message: expect.stringContaining('Invalid read-card path') } });
  });
});
