import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  beforeAll(async () => {
    testbed = await startClientTestbed({ secret: SECRET });
    stranger = await startIntegrator({ scripts: [`${testbed.station.baseUrl}/client/service-browser-client.js`] });
  });
  afterAll(async () => {
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
});
