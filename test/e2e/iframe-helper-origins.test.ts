// The iframe helper against pages of other origins, in Chromium: each of the helper's origin checks has a test
// here that a page on a foreign origin gets past when that check is removed, and a flood of helper pages from
// one origin cannot push out the ticket of a frame open in another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Frame, Page } from 'playwright-core';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { askHelper, helperMessages, pageWithHelper, startIntegrator, startShopTestbed, type Integrator, type ShopTestbed } from '../support/browser/iframe-integrator.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';

const SECRET = 'shop-api-secret-0123456789';
const NOT_PREPARED = 'ab'.repeat(32);

describe('iframe helper and foreign origins (Chromium)', () => {
  let station: TestStation;
  let testbed: ShopTestbed;
  let stranger: Integrator;
  let helperUrl: string;

  beforeAll(async () => {
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } });
    testbed = await startShopTestbed(station, SECRET);
    stranger = await startIntegrator();
    const prepared = await fetch(`${station.baseUrl}/api/signatures/prepare-files-for-signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [{ fileName: 'contract.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }] }),
    });
    const { doc_id: docId } = (await prepared.json()) as { doc_id: string };
    helperUrl = `${station.baseUrl}/web-element/os-broker/shop/id-signature?doc_id=${docId}`;
  });
  afterAll(async () => {
    await testbed?.close();
    await stranger?.close();
    await station?.dispose();
  });

  /** The shop's page with the helper framed and announced ready. */
  async function shopWithReadyHelper(): Promise<{ page: Page; helper: Frame }> {
    const page = await pageWithHelper(testbed.browser, testbed.integrator, helperUrl);
    await expect.poll(async () => (await helperMessages(page)).length).toBe(1);
    const helper = page.frames().find((frame) => frame.url().startsWith(`${station.baseUrl}/web-element/os-broker/`));
    if (!helper) throw new Error('the helper frame is missing');
    return { page, helper };
  }

  it('keeps an open frame working while another origin requests the helper page 300 times', async () => {
    const { page } = await shopWithReadyHelper();
    const flood = await testbed.browser.newPage();
    await flood.goto(`${stranger.origin}/`);
    const fetched = await flood.evaluate(async (url) => {
      const one = (index: number): Promise<Response> => fetch(url, { mode: 'no-cors', referrerPolicy: index % 2 ? 'no-referrer' : 'origin' });
      return (await Promise.all(Array.from({ length: 300 }, (_, index) => one(index)))).length;
    }, helperUrl);
    expect(fetched).toBe(300);
    await askHelper(page, station.baseUrl, { operation: 'getSignature', hexDigests: [NOT_PREPARED] });
    await expect.poll(async () => (await helperMessages(page)).length).toBe(2);
    // The ticket is still known: the call got as far as the digest check.
    expect((await helperMessages(page))[1]!.data).toMatchObject({ operation: 'getSignature', status: 'error', code: 'ERR_IFRAME_DIGEST_UNKNOWN' });
    await Promise.all([page.close(), flood.close()]);
  });

  it('the page itself refuses to serve an embedder outside the client’s origins, even where frame-ancestors is not enforced', async () => {
    const page = await testbed.browser.newPage();
    // A browser that ignores the station's frame-ancestors: the page's own check is what is left.
    await page.route(`${station.baseUrl}/web-element/os-broker/**`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['content-security-policy'];
      await route.fulfill({ response, headers });
    });
    await page.goto(`${stranger.origin}/`);
    await page.evaluate((url) => {
      (window as unknown as { helperMessages: unknown[] }).helperMessages = [];
      window.addEventListener('message', (event) => (window as unknown as { helperMessages: unknown[] }).helperMessages.push({ origin: event.origin, data: event.data }));
      const iframe = document.createElement('iframe');
      iframe.src = url;
      iframe.setAttribute('referrerpolicy', 'origin');
      document.body.appendChild(iframe);
    }, helperUrl);
    const helperFrame = (): Frame | undefined => page.frames().find((frame) => frame.url().startsWith(`${station.baseUrl}/`));
    await expect.poll(() => helperFrame() !== undefined).toBe(true);
    const helper = helperFrame()!;
    await expect.poll(() => helper.locator('#status').textContent()).toBe('This web page is not allowed to use Signing Station.');
    expect(await helperMessages(page)).toEqual([]);
    await page.close();
  });

  it('the station refuses a call from a helper page whose embedder is not one of the client’s origins (ERR_IFRAME_ORIGIN_FORBIDDEN)', async () => {
    const { page, helper } = await shopWithReadyHelper();
    // The helper page's own ticket, sent as a page would that claims a foreign embedder.
    const answer = await helper.evaluate(async (foreign) => {
      const { ticket } = JSON.parse(document.getElementById('frame-data')!.textContent!) as { ticket: string };
      const response = await fetch('/web-element/api/certificate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ticket, embeddingOrigin: foreign }) });
      return { status: response.status, body: (await response.json()) as unknown };
    }, stranger.origin);
    expect(answer).toMatchObject({ status: 403, body: { code: 'ERR_IFRAME_ORIGIN_FORBIDDEN' } });
    await page.close();
  });

  it('ignores a message that comes from another origin, even one that names the parent as its source', async () => {
    const { page, helper } = await shopWithReadyHelper();
    await helper.evaluate((foreign) => {
      window.dispatchEvent(new MessageEvent('message', { data: { operation: 'getSignature', hexDigests: ['cd'.repeat(32)] }, origin: foreign, source: window.parent }));
    }, stranger.origin);
    await askHelper(page, station.baseUrl, { operation: 'getSignature', hexDigests: [NOT_PREPARED] });
    await expect.poll(async () => (await helperMessages(page)).length).toBeGreaterThanOrEqual(2);
    // Had the foreign message been taken, the parent's request would have met a busy helper.
    expect((await helperMessages(page)).map((message) => message.data)).toEqual([
      expect.objectContaining({ operation: 'ready' }),
      expect.objectContaining({ operation: 'getSignature', code: 'ERR_IFRAME_DIGEST_UNKNOWN' }),
    ]);
    await page.close();
  });
});
