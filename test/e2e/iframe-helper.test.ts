import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { startTestStation, type TestStation } from '../support/test-station.js';
import { ScriptedPrompt } from '../support/oidc-scripted-prompt.js';
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm } from '../support/pkcs11-softhsm.js';
import { createPkcs11TokenSource } from '../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import { minimalPdf } from '../support/signing-test-pdfs.js';
import { createNssDb, pdfsig } from '../support/signing-validators.js';

const SECRET = 'shop-api-secret-0123456789';
const PUBLISHED_CLIENT = createRequire(import.meta.url).resolve('@eid-easy/eideasy-browser-client');

/** An integrator's web page on its own 127.0.0.1 port: the published browser client and a holder for the iframe. */
async function startIntegrator(): Promise<{ server: Server; origin: string }> {
  const client = await readFile(PUBLISHED_CLIENT);
  const server = createServer((request, response) => {
    if (request.url === '/client.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(client);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>shop</title><script src="/client.js"></script><div id="holder" style="height:80px"></div>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('iframe certificate helper in Chromium', () => {
  let softhsm: SoftHsm;
  let station: TestStation;
  let integrator: { server: Server; origin: string };
  let stranger: { server: Server; origin: string };
  let browser: Browser;
  let dir: string;
  const prompt = new ScriptedPrompt();

  const prepare = async (clientId = 'shop', secret = SECRET): Promise<string> => {
    const response = await fetch(`${station.baseUrl}/api/signatures/prepare-files-for-signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, secret, container_type: 'pdf', files: [{ fileName: 'contract.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }] }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { doc_id: string }).doc_id;
  };

  const integratorPage = async (origin = integrator.origin): Promise<Page> => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    return page;
  };

  /** Frames the helper into the integrator page by hand and returns every message it posts to the page. */
  const frameByHand = async (page: Page, src: string): Promise<void> => {
    await page.evaluate((url) => {
      const messages: unknown[] = [];
      (window as unknown as { helperMessages: unknown[] }).helperMessages = messages;
      window.addEventListener('message', (event) => messages.push({ origin: event.origin, data: event.data }));
      const iframe = document.createElement('iframe');
      iframe.id = 'helper';
      iframe.src = url;
      iframe.setAttribute('referrerpolicy', 'origin');
      document.getElementById('holder')!.appendChild(iframe);
    }, src);
  };
  const messages = (page: Page): Promise<Array<{ origin: string; data: Record<string, unknown> }>> =>
    page.evaluate(() => (window as unknown as { helperMessages: Array<{ origin: string; data: Record<string, unknown> }> }).helperMessages);
  const ask = (page: Page, message: unknown): Promise<void> =>
    page.evaluate(([payload, target]) => (document.getElementById('helper') as HTMLIFrameElement).contentWindow!.postMessage(payload, target as string), [message, station.baseUrl] as const);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iframe-helper-'));
    softhsm = await createSoftHsm();
    await softhsm.createToken('Signing Token', '1234', [{ id: '01', algorithm: 'RSA-2048', usage: 'signing' }]);
    const source = createPkcs11TokenSource({
      includeKnown: false,
      modules: [{ path: SOFTHSM_MODULE, name: 'SoftHSM', kind: 'pkcs11', origin: 'config', rescanByReinitialize: true }],
    });
    station = await startTestStation({}, { tokenSources: [source], userPrompt: prompt });
    integrator = await startIntegrator();
    stranger = await startIntegrator();
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [integrator.origin] }, Buffer.from(SECRET));
    await station.data.clients.upsert({ clientId: 'other', allowedOrigins: ['https://other.example'] }, Buffer.from(SECRET));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([integrator, stranger].map((running) => running && new Promise((resolve) => running.server.close(resolve))));
    await station?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('signs a PDF with a USB token through the published client 2.140.0, unchanged; pdfsig accepts it', async () => {
    const docId = await prepare();
    const page = await integratorPage();
    const outcome = await page.evaluate(
      ([base, doc]) =>
        new Promise<{ ok: boolean; detail: string }>((resolve) => {
          const global = window as unknown as { eidEasyBrowserClient: { createClient(settings: object): { signature: Record<string, { start(options: object): void }> } } };
          const client = global.eidEasyBrowserClient.createClient({ clientId: 'shop', docId: doc, countryCode: 'EE', sandbox: true, apiEndpoints: { base: () => base } });
          client.signature.idCardSignature!.start({
            countryCode: 'EE',
            iframeHolder: document.getElementById('holder'),
            success: (result: unknown) => resolve({ ok: true, detail: JSON.stringify(result) }),
            fail: (error: unknown) => resolve({ ok: false, detail: JSON.stringify(error) }),
          });
        }),
      [station.baseUrl, docId] as const,
    );
    expect(outcome, outcome.detail).toMatchObject({ ok: true });
    expect(prompt.confirms.map((request) => request.purpose)).toEqual(['read-certificate', 'sign']);
    expect(prompt.confirms.every((request) => request.requester === integrator.origin)).toBe(true);
    expect(prompt.pins.at(-1)).toMatchObject({ tokenLabel: 'Signing Token', requester: integrator.origin });

    const download = await fetch(`${station.baseUrl}/api/signatures/download-signed-file`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'shop', secret: SECRET, doc_id: docId }),
    });
    const signed = Buffer.from(((await download.json()) as { signed_file_contents: string }).signed_file_contents, 'base64');
    await writeFile(join(dir, 'signed.pdf'), signed);
    const nss = await createNssDb(join(dir, 'nss'), softhsm.ca.pem);
    const report = await pdfsig(nss, join(dir, 'signed.pdf'));
    expect(report.signatures, report.output).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({ valid: true, trusted: true, totalDocumentSigned: true });
    await page.close();
  });

  it('announces itself to an allowed embedder, answers only it, and refuses a digest it did not prepare', async () => {
    const docId = await prepare();
    const page = await integratorPage();
    await frameByHand(page, `${station.baseUrl}/web-element/os-broker/shop/id-signature?doc_id=${docId}`);
    await expect.poll(async () => (await messages(page)).length).toBe(1);
    expect((await messages(page))[0]).toEqual({ origin: station.baseUrl, data: { sender: 'EIDEASY_ID_CARD_INTEGRATION', operation: 'ready', status: 'OK' } });

    await ask(page, { operation: 'getSignature', hexDigests: ['ab'.repeat(32)] });
    await expect.poll(async () => (await messages(page)).length).toBe(2);
    expect((await messages(page))[1]!.data).toMatchObject({ operation: 'getSignature', status: 'error', code: 'ERR_IFRAME_DIGEST_UNKNOWN' });
    await page.close();
  });

  it('refuses a second request while one is pending', async () => {
    const page = await integratorPage();
    await frameByHand(page, `${station.baseUrl}/web-element/os-broker/shop/id-signature`);
    await expect.poll(async () => (await messages(page)).length).toBe(1);
    const released = prompt.holdNextConfirm();
    await ask(page, { operation: 'getCertificate', country: 'EE' });
    await ask(page, { operation: 'getCertificate', country: 'EE' });
    await expect.poll(async () => (await messages(page)).length).toBe(2);
    expect((await messages(page))[1]!.data).toMatchObject({ operation: 'getCertificate', status: 'error', code: 'ERR_IFRAME_BUSY' });
    released();
    await expect.poll(async () => (await messages(page)).length).toBe(3);
    expect((await messages(page))[2]!.data).toMatchObject({ operation: 'getCertificate', status: 'OK', certificate: expect.any(String) });
    await page.close();
  });

  it('ignores messages from a sibling frame', async () => {
    const page = await integratorPage();
    await frameByHand(page, `${station.baseUrl}/web-element/os-broker/shop/id-signature`);
    await expect.poll(async () => (await messages(page)).length).toBe(1);
    const before = prompt.confirms.length;
    await page.evaluate((target) => {
      const sibling = document.createElement('iframe');
      sibling.srcdoc = `<script>parent.frames[0].postMessage({operation:'getCertificate'}, ${JSON.stringify(target)}); parent.postMessage('sibling-sent', '*');</script>`;
      document.body.appendChild(sibling);
    }, station.baseUrl);
    await expect.poll(async () => (await messages(page)).length).toBe(2);
    // Messages are handled in order: the parent's request after the sibling's gets the first answer.
    await ask(page, { operation: 'getSignature', hexDigests: ['cd'.repeat(32)] });
    await expect.poll(async () => (await messages(page)).length).toBe(3);
    expect((await messages(page)).map((message) => message.data)).toEqual([
      expect.objectContaining({ operation: 'ready' }),
      'sibling-sent',
      expect.objectContaining({ operation: 'getSignature', code: 'ERR_IFRAME_DIGEST_UNKNOWN' }),
    ]);
    expect(prompt.confirms.length).toBe(before);
    await page.close();
  });

  it('does nothing framed by a page of another origin, or opened top-level', async () => {
    const page = await integratorPage(stranger.origin);
    const blocked = new Promise<string>((resolve) => page.on('console', (message) => /frame-ancestors/.test(message.text()) && resolve(message.text())));
    await frameByHand(page, `${station.baseUrl}/web-element/os-broker/shop/id-signature`);
    expect(await blocked).toContain('frame-ancestors');
    expect(await messages(page)).toEqual([]);

    const top = await browser.newPage();
    await top.goto(`${station.baseUrl}/web-element/os-broker/shop/id-signature`);
    await expect.poll(() => top.locator('#status').textContent()).toContain('Open that web page instead');
    await Promise.all([page.close(), top.close()]);
  });

  it('refuses a document of another client before serving the page', async () => {
    const othersDoc = await prepare('other');
    const response = await fetch(`${station.baseUrl}/web-element/os-broker/shop/id-signature?doc_id=${othersDoc}`);
    expect(response.status).toBe(404);
    const unknownMethod = await fetch(`${station.baseUrl}/web-element/os-broker/shop/no-such-method`);
    expect(unknownMethod.status).toBe(400);
  });

  it('lets only the framed page itself call the station', async () => {
    const response = await fetch(`${station.baseUrl}/web-element/api/certificate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: integrator.origin },
      body: JSON.stringify({ ticket: 'x'.repeat(32), embeddingOrigin: integrator.origin }),
    });
    expect(response.status).toBe(403);
  });
});
