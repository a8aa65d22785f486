import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { createSoftHsm, type SoftHsm, softHsmTokenSource } from '../support/pkcs11/pkcs11-softhsm.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createNssDb, embeddedSignatures, opensslCmsVerify, pdfsig } from '../support/signing/signing-validators.js';
import { askHelper, helperMessages, pageWithHelper, signWithPublishedClient, startIntegrator, startShopTestbed, type Integrator, type ShopTestbed } from '../support/browser/iframe-integrator.js';
import { runModule } from '../support/browser/client-integrator.js';
import { downloadSigned } from '../support/signing/signing-session-client.js';

const SECRET = 'shop-api-secret-0123456789';

describe('iframe certificate helper in Chromium', () => {
  let softhsm: SoftHsm;
  let station: TestStation;
  let shop: ShopTestbed;
  let integrator: Integrator;
  let stranger: Integrator;
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

  const framed = (helperUrl: string, embedder = integrator): Promise<Page> => pageWithHelper(browser, embedder, helperUrl);
  /** The station's own client's idCardSignature module, in the integrator page, through the real helper. */
  const signWithOurClient = (page: Page, docId: string, settings: Record<string, unknown> = {}) =>
    runModule(page, {
      client: 'serviceBrowserClient',
      kind: 'signature',
      module: 'idCardSignature',
      settings: { clientId: 'shop', docId, countryCode: 'EE', base: station.baseUrl, ...settings },
      options: { iframeHolder: true },
    });
  const messages = helperMessages;
  const ask = (page: Page, message: unknown): Promise<void> => askHelper(page, station.baseUrl, message);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iframe-helper-'));
    softhsm = await createSoftHsm();
    await softhsm.createToken('Signing Token', '1234', [{ id: '01', algorithm: 'RSA-2048', usage: 'signing' }]);
    const source = softHsmTokenSource();
    station = await startTestStation({}, { tokenSources: [source], userPrompt: prompt });
    shop = await startShopTestbed(station, SECRET, { scripts: [`${station.baseUrl}/client/service-browser-client.js`] });
    ({ integrator, browser } = shop);
    stranger = await startIntegrator();
    await station.data.clients.upsert({ clientId: 'other', allowedOrigins: ['https://other.example'] }, Buffer.from(SECRET));
  });
  afterAll(async () => {
    await Promise.all([shop?.close(), stranger?.close()]);
    await station?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('signs a PDF with a USB token through the published client 2.140.0, unchanged; pdfsig accepts it', async () => {
    const docId = await prepare();
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    const outcome = await signWithPublishedClient(page, { stationUrl: station.baseUrl, clientId: 'shop', docId, module: 'idCardSignature' });
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
    await writeFile(join(dir, 'token-ca.pem'), softhsm.ca.pem);
    const [embedded] = embeddedSignatures(signed);
    const openssl = await opensslCmsVerify(embedded!.cms, embedded!.signedContent, join(dir, 'token-ca.pem'));
    expect(openssl.code, openssl.stderr).toBe(0);
    await page.close();
  });

  it('signs a PDF with a USB token through the station’s own client (serviceBrowserClient); pdfsig accepts it', async () => {
    const docId = await prepare();
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    const outcome = await signWithOurClient(page, docId);
    expect(outcome.calls).toEqual(['success', 'finished']);
    expect(outcome.result).toMatchObject({ data: { status: 'OK', signing_session_status: 'SIGNED' } });
    expect(prompt.confirms.at(-1)).toMatchObject({ purpose: 'sign', requester: integrator.origin });

    const { file } = await downloadSigned({ baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET }, docId);
    await writeFile(join(dir, 'signed-ours.pdf'), file);
    const report = await pdfsig(await createNssDb(join(dir, 'nss-ours'), softhsm.ca.pem), join(dir, 'signed-ours.pdf'));
    expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true, totalDocumentSigned: true });
    await page.close();
  });

  // The Vietnamese CA tokens are USB tokens behind PKCS#11 like the others: each module signs through the helper.
  const VIETNAMESE_TOKEN_MODULES = { vnBkavTokenSignature: 'vn-bkav-token-signature', vnCa2TokenSignature: 'vn-ca2-token-signature', vnFastTokenSignature: 'vn-fast-token-signature', vnFptTokenSignature: 'vn-fpt-token-signature', vnSmartTokenSignature: 'vn-smart-token-signature', vnViettelTokenSignature: 'vn-viettel-token-signature', vnVnptTokenSignature: 'vn-vnpt-token-signature' };
  for (const client of ['eidEasyBrowserClient', 'serviceBrowserClient'] as const) {
    it(`${client}: every Vietnamese token module (7) signs a PDF with the USB token; pdfsig accepts the last`, async () => {
      const page = await browser.newPage();
      await page.goto(`${integrator.origin}/`);
      let file: Buffer | undefined;
      for (const [module, method] of Object.entries(VIETNAMESE_TOKEN_MODULES)) {
        const docId = await prepare();
        if (client === 'eidEasyBrowserClient') {
          const outcome = await signWithPublishedClient(page, { stationUrl: station.baseUrl, clientId: 'shop', docId, module, countryCode: 'VN' });
          expect(outcome, `${module}: ${outcome.detail}`).toMatchObject({ ok: true });
        } else {
          const outcome = await runModule(page, { client, kind: 'signature', module, settings: { clientId: 'shop', docId, countryCode: 'VN', base: station.baseUrl }, options: { iframeHolder: true } });
          expect(outcome.calls, `${module}: ${outcome.error?.message}`).toEqual(['success', 'finished']);
        }
        const downloaded = await downloadSigned({ baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET }, docId);
        expect(downloaded.body.signing_method).toBe(method);
        file = downloaded.file;
      }
      await writeFile(join(dir, `vn-${client}.pdf`), file!);
      const report = await pdfsig(await createNssDb(join(dir, `nss-vn-${client}`), softhsm.ca.pem), join(dir, `vn-${client}.pdf`));
      expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true });
      await page.close();
    });
  }

  it('the station’s own client fails as a cancel when the user declines the signature in the station, in the client’s language', async () => {
    const docId = await prepare();
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    prompt.agree = false;
    try {
      const outcome = await signWithOurClient(page, docId, { language: 'et' });
      expect(outcome.calls).toEqual(['fail', 'finished']);
      expect(outcome.error).toMatchObject({ isCancel: true, userMessage: 'Katkestatud. Midagi ei allkirjastatud ega jagatud.', message: expect.stringMatching(/declined/i) });
    } finally {
      prompt.agree = true;
      await page.close();
    }
  });

  it('speaks the user’s language: the helper page the browser’s, the frame’s title the client’s language setting', async () => {
    const docId = await prepare();
    const estonian = await browser.newContext({ locale: 'et-EE' });
    const page = await estonian.newPage();
    await page.goto(`${integrator.origin}/`);
    prompt.agree = false;
    try {
      expect((await signWithOurClient(page, docId, { language: 'lv' })).calls).toEqual(['fail', 'finished']);
      expect(await page.locator('#holder iframe').getAttribute('title')).toBe('Parakstīšanas palīgs: sertifikāti un parakstīšana šajā datorā');
      const helper = page.frameLocator('#holder iframe');
      expect(await helper.locator('html').getAttribute('lang')).toBe('et');
      // back to ready after the declined request
      await expect.poll(() => helper.locator('#status').textContent()).toBe('Allkirjastusjaam on valmis.');
    } finally {
      prompt.agree = true;
      await estonian.close();
    }

    const russian = await browser.newContext({ locale: 'ru-RU' });
    const top = await russian.newPage();
    await top.goto(`${station.baseUrl}/web-element/os-broker/shop/id-signature`);
    await expect.poll(() => top.locator('#status').textContent()).toContain('Откройте эту веб-страницу');
    expect(await top.locator('html').getAttribute('lang')).toBe('ru');
    await russian.close();
  });

  it('announces itself to an allowed embedder, answers only it, and refuses a digest (or AutoFirma content) it did not prepare', async () => {
    const docId = await prepare();
    const page = await framed(`${station.baseUrl}/web-element/os-broker/shop/id-signature?doc_id=${docId}`);
    await expect.poll(async () => (await messages(page)).length).toBe(1);
    expect((await messages(page))[0]).toEqual({ origin: station.baseUrl, data: { sender: 'EIDEASY_ID_CARD_INTEGRATION', operation: 'ready', status: 'OK' } });

    await ask(page, { operation: 'getSignature', hexDigests: ['ab'.repeat(32)] });
    await expect.poll(async () => (await messages(page)).length).toBe(2);
    expect((await messages(page))[1]!.data).toMatchObject({ operation: 'getSignature', status: 'error', code: 'ERR_IFRAME_DIGEST_UNKNOWN' });
    // AutoFirma-type content is the same check: only the digest the station prepared, here as base64.
    await ask(page, { operation: 'getSignature', fileContent: Buffer.from('ab'.repeat(32), 'hex').toString('base64') });
    await expect.poll(async () => (await messages(page)).length).toBe(3);
    expect((await messages(page))[2]!.data).toMatchObject({ operation: 'getSignature', status: 'error', code: 'ERR_IFRAME_DIGEST_UNKNOWN' });
    await ask(page, { operation: 'getSignature' });
    await expect.poll(async () => (await messages(page)).length).toBe(4);
    expect((await messages(page))[3]!.data).toMatchObject({ operation: 'getSignature', status: 'error', code: 'ERR_IFRAME_NOTHING_TO_SIGN' });
    await page.close();
  });

  it('refuses a second request while one is pending', async () => {
    // A client whose certificate reads this origin has not been allowed yet: the read waits for the user.
    await station.data.clients.upsert({ clientId: 'shop-two', allowedOrigins: [integrator.origin] });
    const page = await framed(`${station.baseUrl}/web-element/os-broker/shop-two/id-signature`);
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
    const page = await framed(`${station.baseUrl}/web-element/os-broker/shop/id-signature`);
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
    const page = await browser.newPage();
    const blocked = new Promise<string>((resolve) => page.on('console', (message) => /frame-ancestors/.test(message.text()) && resolve(message.text())));
    await page.goto(`${stranger.origin}/`);
    await page.evaluate((url) => {
      (window as unknown as { helperMessages: unknown[] }).helperMessages = [];
      window.addEventListener('message', (event) => (window as unknown as { helperMessages: unknown[] }).helperMessages.push(event.data));
      const iframe = document.createElement('iframe');
      iframe.src = url;
      document.body.appendChild(iframe);
    }, `${station.baseUrl}/web-element/os-broker/shop/id-signature`);
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
