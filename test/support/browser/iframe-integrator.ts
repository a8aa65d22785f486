// An integrator's web page for the iframe helper tests: its own 127.0.0.1 port, the published browser client
// 2.140.0, a holder for the iframe, and helpers that frame the helper by hand and read what it posts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import type { Station } from '../../../src/station/create-station.js';
import { launchChromium } from './browser.js';

const PUBLISHED_CLIENT = createRequire(import.meta.url).resolve('@eid-easy/eideasy-browser-client');

export interface Integrator {
  origin: string;
  close(): Promise<void>;
}

/** `scripts`: more script tags for the page (the station's own client, loaded from the station as integrators do). */
export async function startIntegrator(options: { scripts?: readonly string[] } = {}): Promise<Integrator> {
  const client = await readFile(PUBLISHED_CLIENT);
  const more = (options.scripts ?? []).map((src) => `<script src="${src}"></script>`).join('');
  const server: Server = createServer((request, response) => {
    if (request.url === '/client.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(client);
    response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>shop</title><script src="/client.js"></script>${more}<div id="holder" style="height:80px"></div>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The integrator page's server with client `shop` registered for its origin, and Chromium to open the page in. */
export interface ShopTestbed {
  integrator: Integrator;
  browser: Browser;
  close(): Promise<void>;
}

export async function startShopTestbed(station: Pick<Station, 'data'>, secret: string, options: { scripts?: readonly string[] } = {}): Promise<ShopTestbed> {
  const integrator = await startIntegrator(options);
  try {
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [integrator.origin] }, Buffer.from(secret));
    const browser = await launchChromium();
    return {
      integrator,
      browser,
      close: async () => {
        await browser.close();
        await integrator.close();
      },
    };
  } catch (error) {
    await integrator.close();
    throw error;
  }
}

export interface HelperMessage {
  origin: string;
  data: unknown;
}

/** The integrator page with the helper framed by hand (no client library), recording every message it receives. */
export async function pageWithHelper(browser: Browser, integrator: Integrator, helperUrl: string): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${integrator.origin}/`);
  await page.evaluate((url) => {
    const messages: unknown[] = [];
    (window as unknown as { helperMessages: unknown[] }).helperMessages = messages;
    window.addEventListener('message', (event) => messages.push({ origin: event.origin, data: event.data }));
    const iframe = document.createElement('iframe');
    iframe.id = 'helper';
    iframe.src = url;
    iframe.setAttribute('referrerpolicy', 'origin');
    document.getElementById('holder')!.appendChild(iframe);
  }, helperUrl);
  return page;
}

export function helperMessages(page: Page): Promise<HelperMessage[]> {
  return page.evaluate(() => (window as unknown as { helperMessages: HelperMessage[] }).helperMessages);
}

/** Posts a request to the framed helper, addressed to the station's origin as the published client does. */
export function askHelper(page: Page, stationOrigin: string, message: unknown): Promise<void> {
  return page.evaluate(([payload, target]) => (document.getElementById('helper') as HTMLIFrameElement).contentWindow!.postMessage(payload, target as string), [message, stationOrigin] as const);
}

/** Runs the published client's iframe signing module in the integrator page; resolves with its outcome. */
export function signWithPublishedClient(page: Page, options: { stationUrl: string; clientId: string; docId: string; module: string; countryCode?: string }): Promise<{ ok: boolean; detail: string }> {
  return page.evaluate(
    ({ stationUrl, clientId, docId, module, countryCode = 'EE' }) =>
      new Promise<{ ok: boolean; detail: string }>((resolve) => {
        const global = window as unknown as { eidEasyBrowserClient: { createClient(settings: object): { signature: Record<string, { start(options: object): void }> } } };
        const client = global.eidEasyBrowserClient.createClient({ clientId, docId, countryCode, sandbox: true, apiEndpoints: { base: () => stationUrl } });
        client.signature[module]!.start({
          countryCode,
          iframeHolder: document.getElementById('holder'),
          success: (result: unknown) => resolve({ ok: true, detail: JSON.stringify(result) }),
          fail: (error: unknown) => resolve({ ok: false, detail: JSON.stringify(error) }),
        });
      }),
    options,
  );
}
