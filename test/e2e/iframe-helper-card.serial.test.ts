import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CardProcess } from '../cards/card-process.js';
import { waitFor } from '../support/pcsc/pcsc-test-env.js';
import { startCardBehindPcscd, type CardBehindPcscd } from '../support/pcsc/card-behind-pcscd.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { pulledDuringPrompt } from '../support/station/pulled-during-prompt.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createNssDb, embeddedSignatures, opensslCmsVerify, pdfsig } from '../support/signing/signing-validators.js';
import type { WebEidAuthToken } from '../../src/core/schemas/iframe-protocol.js';
import { verifyWebEidAuthToken } from '../../src/station/identity/verify-web-eid-auth-token.js';
import { askHelper, helperMessages, pageWithHelper, signWithPublishedClient, startShopTestbed, type Integrator, type ShopTestbed } from '../support/browser/iframe-integrator.js';
import { BOTH_CLIENTS, runModule, stationIdentitySettings, type ClientGlobal } from '../support/browser/client-integrator.js';

const SECRET = 'shop-api-secret-0123456789';
const SIGN_PIN = '12345';

// An ID card emulated behind the real pcscd, signing through the iframe helper from a page on another port.
describe('iframe helper with an ID card (pcscd, emulated national-ID card)', () => {
  let reader: CardBehindPcscd;
  let card: CardProcess;
  let station: TestStation;
  let shop: ShopTestbed;
  let integrator: Integrator;
  let browser: Browser;
  let dir: string;
  const prompt = new ScriptedPrompt();

  const post = async (path: string, body: object, origin?: string): Promise<Record<string, unknown>> => {
    const response = await fetch(`${station.baseUrl}/api/signatures${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const prepare = async (): Promise<string> =>
    (await post('/prepare-files-for-signing', { client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [{ fileName: 'card.pdf', mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }] }))
      .doc_id as string;

  /** The helper framed with a prepared, started document: its digest is ready to be signed. */
  const started = async (): Promise<{ page: Page; hexDigest: string }> => {
    const docId = await prepare();
    const page = await pageWithHelper(browser, integrator, `${station.baseUrl}/web-element/os-broker/shop/id-signature?doc_id=${docId}`);
    await expect.poll(async () => (await helperMessages(page)).length).toBe(1);
    const start = await post('/start-signing', { client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: card.certificates.signing }, integrator.origin);
    expect(start.hexDigest, JSON.stringify(start)).toEqual(expect.any(String));
    return { page, hexDigest: start.hexDigest as string };
  };
  const signatureReply = async (page: Page, hexDigest: string): Promise<Record<string, unknown>> => {
    await askHelper(page, station.baseUrl, { operation: 'getSignature', hexDigests: [hexDigest] });
    await expect.poll(async () => (await helperMessages(page)).length, { timeout: 10_000 }).toBe(2);
    return (await helperMessages(page))[1]!.data as Record<string, unknown>;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iframe-card-'));
    reader = await startCardBehindPcscd({ kind: 'national-id', nationalId: { subject: 'CN=MÄNNIK\\,MARI-LIIS\\,48010010000,2.5.4.4=MÄNNIK,2.5.4.42=MARI-LIIS,2.5.4.5=PNOEE-48010010000,C=EE', signPin: SIGN_PIN } });
    ({ card } = reader);
    station = await startTestStation({}, { userPrompt: prompt });
    shop = await startShopTestbed(station, SECRET, { scripts: [`${station.baseUrl}/client/service-browser-client.js`] });
    ({ integrator, browser } = shop);
    await station.tokens.start(); // the sources start on first use; the card appears once they run
    await card.insert();
    await waitFor('the card', () => station.tokens.tokens().some((token) => token.kind === 'pcsc'), 10_000);
  });
  afterAll(async () => {
    await shop?.close();
    await station?.dispose();
    await reader?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('signs with the card through the published client; the PIN is asked in the station with the real origin; pdfsig accepts the PDF', async () => {
    prompt.pin = SIGN_PIN;
    const docId = await prepare();
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    const outcome = await signWithPublishedClient(page, { stationUrl: station.baseUrl, clientId: 'shop', docId, module: 'idCardSignature' });
    expect(outcome, outcome.detail).toMatchObject({ ok: true });
    expect(prompt.pins.at(-1)).toMatchObject({ requester: integrator.origin, pinLabel: 'PIN2' });

    const download = await post('/download-signed-file', { client_id: 'shop', secret: SECRET, doc_id: docId });
    await writeFile(join(dir, 'card-signed.pdf'), Buffer.from(download.signed_file_contents as string, 'base64'));
    const report = await pdfsig(await createNssDb(join(dir, 'nss'), card.caPem), join(dir, 'card-signed.pdf'));
    expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true, totalDocumentSigned: true });
    await writeFile(join(dir, 'card-ca.pem'), card.caPem);
    const [embedded] = embeddedSignatures(await readFile(join(dir, 'card-signed.pdf')));
    const openssl = await opensslCmsVerify(embedded!.cms, embedded!.signedContent, join(dir, 'card-ca.pem'));
    expect(openssl.code, openssl.stderr).toBe(0);
    await page.close();
  });

  it('after a wrong PIN the station asks again showing the tries left; cancelling answers user_cancel', async () => {
    await card.setPinTries(3);
    const { page, hexDigest } = await started();
    const asked = prompt.pins.length;
    prompt.pinAnswers.push('00000', null);
    const reply = await signatureReply(page, hexDigest);
    expect(reply).toMatchObject({ operation: 'getSignature', status: 'error', result: 'user_cancel', message: 'user_cancel' });
    expect(prompt.pins.slice(asked)).toEqual([
      expect.objectContaining({ previousAttemptFailed: false }),
      expect.objectContaining({ previousAttemptFailed: true, retriesLeft: 2 }),
    ]);
    await page.close();
  });

  it('says so when the PIN is locked', async () => {
    const { page, hexDigest } = await started();
    await card.setPinTries(0);
    try {
      const reply = await signatureReply(page, hexDigest);
      expect(reply).toMatchObject({ status: 'error', code: 'ERR_TOKEN_PIN_LOCKED', retriable: false });
    } finally {
      await card.setPinTries(3);
      await page.close();
    }
  });

  it('a card pulled out while the PIN is asked ends with a retriable error', async () => {
    prompt.pin = SIGN_PIN;
    const { page, hexDigest } = await started();
    const release = prompt.holdNextPin();
    const asked = prompt.pins.length;
    await askHelper(page, station.baseUrl, { operation: 'getSignature', hexDigests: [hexDigest] });
    await expect.poll(() => prompt.pins.length).toBe(asked + 1);
    await card.remove();
    release();
    await expect.poll(async () => (await helperMessages(page)).length, { timeout: 10_000 }).toBe(2);
    expect((await helperMessages(page))[1]!.data).toMatchObject({ status: 'error', retriable: true });
    // The frame says what to do, never "Confirm in the Signing Station window." with no prompt open.
    await expect.poll(() => page.frameLocator('#helper').locator('#status').textContent()).toBe('Your ID card or token is not connected. Insert it, then try again on the web page.');
    await card.insert();
    await waitFor('the card again', () => station.tokens.tokens().some((token) => token.kind === 'pcsc'), 10_000);
    await page.close();
  });

  it('waits for the card: a certificate request made before insertion is answered once the card is in', async () => {
    await card.remove();
    await waitFor('no card', () => !station.tokens.tokens().some((token) => token.kind === 'pcsc'), 10_000);
    const page = await pageWithHelper(browser, integrator, `${station.baseUrl}/web-element/os-broker/shop/id-signature`);
    await expect.poll(async () => (await helperMessages(page)).length).toBe(1);
    await askHelper(page, station.baseUrl, { operation: 'getCertificate', country: 'EE' });
    await card.insert();
    await expect.poll(async () => (await helperMessages(page)).length, { timeout: 10_000 }).toBe(2);
    expect((await helperMessages(page))[1]!.data).toMatchObject({ operation: 'getCertificate', status: 'OK', certificate: card.certificates.signing });
    await page.close();
  });

  it('makes a Web eID authentication token bound to the embedding origin and the nonce, with the authentication key', async () => {
    const page = await pageWithHelper(browser, integrator, `${station.baseUrl}/web-element/os-broker/shop/ee-web-eid-login?doc_id=`);
    await expect.poll(async () => (await helperMessages(page)).length).toBe(1);
    const nonce = 'c29tZSByYW5kb20gbm9uY2UgZnJvbSB0aGUgc3RhdGlvbg';
    prompt.pin = '1234';
    await askHelper(page, station.baseUrl, { operation: 'getAuthToken', nonce });
    await expect.poll(async () => (await helperMessages(page)).length, { timeout: 10_000 }).toBe(2);
    const reply = (await helperMessages(page))[1]!.data as { status: string; token: WebEidAuthToken };
    expect(reply).toMatchObject({ status: 'OK', token: { format: 'web-eid:1.0', algorithm: 'ES256', unverifiedCertificate: card.certificates.authentication } });
    expect(prompt.confirms.at(-1)).toMatchObject({ purpose: 'authenticate', requester: integrator.origin });

    const certificate = verifyWebEidAuthToken(reply.token, { nonce, origins: [integrator.origin], now: new Date() });
    expect(certificate.subject).toContain('MARI-LIIS');
    expect(() => verifyWebEidAuthToken(reply.token, { nonce, origins: ['https://evil.example'], now: new Date() })).toThrow(/allowed origin/);
    expect(() => verifyWebEidAuthToken(reply.token, { nonce: `${nonce}x`, origins: [integrator.origin], now: new Date() })).toThrow(/nonce/);
    await page.close();
  });

  it('identifies the card holder through the published client\'s Web eID module, unchanged', async () => {
    prompt.pin = '1234';
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    const outcome = await page.evaluate(
      ({ stationUrl }) =>
        new Promise<{ ok: boolean; detail: string }>((resolve) => {
          const global = window as unknown as { eidEasyBrowserClient: { createClient(settings: object): { identification: Record<string, { start(options: object): void }> } } };
          const client = global.eidEasyBrowserClient.createClient({
            clientId: 'shop',
            countryCode: 'EE',
            sandbox: true,
            apiEndpoints: {
              base: () => stationUrl,
              identityStart: () => `${stationUrl}/integrator/shop/identity/start`,
              identityFinish: () => `${stationUrl}/integrator/shop/identity/finish`,
            },
          });
          client.identification.webEid!.start({
            iframeHolder: document.getElementById('holder'),
            success: (result: unknown) => resolve({ ok: true, detail: JSON.stringify(result) }),
            fail: (error: unknown) => resolve({ ok: false, detail: JSON.stringify(error) }),
          });
        }),
      { stationUrl: station.baseUrl },
    );
    expect(outcome, outcome.detail).toMatchObject({ ok: true });
    expect(JSON.parse(outcome.detail)).toMatchObject({ data: { status: 'OK', idcode: '48010010000', firstname: 'MARI-LIIS', lastname: 'MÄNNIK', country: 'EE', current_login_method: 'ee-web-eid-login' } });
    await page.close();
  });

  describe('on one integrator page, through both clients', () => {
    const identify = (client: ClientGlobal, module: string, readCard?: string) =>
      runModule(pageForClients, {
        client,
        kind: 'identification',
        module,
        settings: { ...stationIdentitySettings(station.baseUrl), ...(readCard ? { readCard } : {}) },
        options: { iframeHolder: true },
      });
    let pageForClients: Page;
    beforeAll(async () => {
      pageForClients = await browser.newPage();
      await pageForClients.goto(`${integrator.origin}/`);
    });
    afterAll(() => pageForClients?.close());

    it('identifies the card holder through the station’s own client’s Web eID module', async () => {
      prompt.pin = '1234';
      const outcome = await identify('serviceBrowserClient', 'webEid');
      expect(outcome.calls).toEqual(['started', 'success', 'finished']);
      expect(outcome.result).toMatchObject({ data: { status: 'OK', idcode: '48010010000', lastname: 'MÄNNIK', current_login_method: 'ee-web-eid-login' } });
    });

    for (const client of BOTH_CLIENTS) {
      it(`${client}: ID-card identification (idCard, ee-id-login): readCard gives a token, finish identifies the holder`, async () => {
        prompt.pin = '1234';
        const confirmsBefore = prompt.confirms.length;
        const outcome = await identify(client, 'idCard', `${station.baseUrl}/api/identity/shop/ee-id-login/read-card`);
        expect(outcome.calls).toEqual(['success', 'finished']);
        expect(outcome.result).toMatchObject({ data: { status: 'OK', idcode: '48010010000', firstname: 'MARI-LIIS', current_login_method: 'ee-id-login' } });
        expect(prompt.confirms.slice(confirmsBefore).every((request) => request.requester === integrator.origin)).toBe(true);
      });
    }

    for (const client of BOTH_CLIENTS) {
      it(`${client}: readCard at the hosted service's path shape (/api/identity/<client_id>/read-card) identifies the holder`, async () => {
        prompt.pin = '1234';
        const outcome = await identify(client, 'idCard', `${station.baseUrl}/api/identity/shop/read-card`);
        expect(outcome.calls).toEqual(['success', 'finished']);
        expect(outcome.result).toMatchObject({ data: { status: 'OK', idcode: '48010010000', current_login_method: 'ee-id-login' } });
      });
    }

    const signInPage = (client: ClientGlobal, docId: string, language: string) =>
      runModule(pageForClients, { client, kind: 'signature', module: 'idCardSignature', settings: { clientId: 'shop', docId, countryCode: 'EE', language, base: station.baseUrl }, options: { iframeHolder: true } });

    // The station fails the request as soon as its token watcher sees the card go: the PIN prompt is withdrawn
    // and the page hears at once, not when the prompt's own deadline passes.
    for (const client of BOTH_CLIENTS) {
      it(`${client}: a card pulled out while the PIN prompt waits fails the page's flow within seconds (ERR_TOKEN_REMOVED, not a cancel)`, async () => {
        prompt.pin = SIGN_PIN;
        const docId = await prepare();
        try {
          const { outcome, afterPullMs } = await pulledDuringPrompt(prompt, 'pin', () => signInPage(client, docId, 'et'), () => card.remove());
          expect(afterPullMs).toBeLessThan(10_000);
          expect(outcome.calls).toEqual(['fail', 'finished']);
          // The published client keeps only the helper's message of a failed reply (its error handling drops the rest).
          expect(outcome.error).toMatchObject({ message: 'The card or token was removed during the operation. Insert it and try again.' });
          expect(outcome.error?.isCancel).toBeFalsy();
          if (client === 'serviceBrowserClient') expect(outcome.error).toMatchObject({ code: 'ERR_TOKEN_REMOVED', userMessage: 'ID-kaart või pulk ei ole ühendatud. Sisesta see ja proovi uuesti.' });
          await expect.poll(() => pageForClients.frameLocator('iframe').locator('#status').textContent()).toBe('Your ID card or token is not connected. Insert it, then try again on the web page.');
          expect((await post('/download-signed-file', { client_id: 'shop', secret: SECRET, doc_id: docId })).status).toBe('error');
          // The attempt is in the audit log as failed for that reason, with the page's origin.
          expect((await station.data.audit.list(5)).find((entry) => entry.outcome !== 'started')).toMatchObject({ outcome: 'failed', detail: 'ERR_TOKEN_REMOVED', requester: integrator.origin });
        } finally {
          await card.insert();
          await waitFor('the card again', () => station.tokens.tokens().some((token) => token.kind === 'pcsc'), 10_000);
        }
      });
    }

    it('a card pulled out while the signing consent waits fails start-signing within seconds: the page hears ERR_TOKEN_REMOVED, not a decline', async () => {
      prompt.pin = SIGN_PIN;
      const docId = await prepare();
      try {
        const { outcome, afterPullMs } = await pulledDuringPrompt(prompt, 'confirm', () => signInPage('serviceBrowserClient', docId, 'en'), () => card.remove());
        expect(prompt.confirms.at(-1)).toMatchObject({ purpose: 'sign', requester: integrator.origin });
        expect(afterPullMs).toBeLessThan(10_000);
        expect(outcome.calls).toEqual(['fail', 'finished']);
        expect(outcome.error).toMatchObject({ isCancel: false, code: 'ERR_TOKEN_REMOVED', userMessage: 'Your ID card or token is not connected. Insert it and try again.' });
        expect((await station.data.audit.list(5)).find((entry) => entry.outcome !== 'started')).toMatchObject({ outcome: 'failed', detail: 'ERR_TOKEN_REMOVED', requester: integrator.origin });
      } finally {
        await card.insert();
        await waitFor('the card again', () => station.tokens.tokens().some((token) => token.kind === 'pcsc'), 10_000);
      }
    });

    it("cancelling the PIN prompt after a wrong PIN is a cancel that says the PIN was wrong, with the card's tries left", async () => {
      await card.setPinTries(3);
      prompt.pinAnswers.push('00000', null);
      const outcome = await signInPage('serviceBrowserClient', await prepare(), 'en');
      expect(outcome.calls).toEqual(['fail', 'finished']);
      expect(outcome.error).toMatchObject({
        isCancel: true,
        code: 'ERR_TOKEN_USER_CANCELLED',
        details: { pin: { wrong: true, retriesLeft: 2, countLow: true, finalTry: false } },
        userMessage: 'Cancelled after a wrong PIN. Nothing was signed. Tries left before the PIN is blocked: 2.',
      });
      await card.setPinTries(3);
    });

    it('a PIN blocked by a wrong last try reaches the page as ERR_TOKEN_PIN_LOCKED, not a cancel, with what to do', async () => {
      await card.setPinTries(1);
      prompt.pinAnswers.push('00000');
      try {
        const outcome = await signInPage('serviceBrowserClient', await prepare(), 'lv');
        expect(outcome.calls).toEqual(['fail', 'finished']);
        expect(outcome.error).toMatchObject({ isCancel: false, code: 'ERR_TOKEN_PIN_LOCKED', userMessage: 'PIN ir bloķēts pēc pārāk daudziem nepareiziem mēģinājumiem. Atbloķējiet to ar PUK kodu un mēģiniet vēlreiz.' });
      } finally {
        await card.setPinTries(3);
      }
    });

    it('ID-card identification fails as a cancel when the user declines in the station', async () => {
      prompt.agree = false;
      try {
        const outcome = await identify('serviceBrowserClient', 'idCard');
        expect(outcome.calls).toEqual(['fail', 'finished']);
        expect(outcome.error?.isCancel).toBe(true);
      } finally {
        prompt.agree = true;
      }
    });
  });
});
