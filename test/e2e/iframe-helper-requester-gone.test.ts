import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser/browser.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { createSoftHsm, type SoftHsm, softHsmTokenSource } from '../support/pkcs11/pkcs11-softhsm.js';
import { askHelper, helperMessages, pageWithHelper, startIntegrator, type Integrator } from '../support/browser/iframe-integrator.js';
import { downloadSigned, prepareDocument } from '../support/signing/signing-session-client.js';
import type { ClientGlobal } from '../support/browser/client-integrator.js';
import type { PendingPrompt } from '../../src/core/schemas/admin-api.js';

const SECRET = 'shop-api-secret-0123456789';

// A signature whose requester is gone is never made: the page cancelling, or its tab closing, while the station's
// PIN prompt is open withdraws that prompt at once; typing the PIN afterwards is impossible, nothing is signed, and
// the audit log says the attempt was cancelled, with the page's origin. Real station prompts (the headless broker),
// a SoftHSM token, Chromium.
describe('iframe helper: no signature without a waiting requester', () => {
  let softhsm: SoftHsm;
  let station: TestStation;
  let integrator: Integrator;
  let browser: Browser;

  const integration = () => ({ baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET });

  /** Answers the station's prompts as the user would until the PIN prompt is open; returns that prompt. */
  const consentUntilPin = async (): Promise<PendingPrompt> => {
    for (;;) {
      const open = await waitForPrompt();
      if (open.kind === 'pin') return open;
      station.prompts.answer(open.id, { kind: 'consent', accept: true });
      await expect.poll(() => station.prompts.pending().some((prompt) => prompt.id === open.id)).toBe(false);
    }
  };
  const waitForPrompt = async (): Promise<PendingPrompt> => {
    await expect.poll(() => station.prompts.pending().length, { timeout: 20_000 }).toBeGreaterThan(0);
    return station.prompts.pending()[0]!;
  };

  /**
   * Starts idCardSignature of `client` in the page and leaves it running; its outcome lands in `window.outcome`.
   * `settings` override the client's (another client id, a timeout).
   */
  const startSigning = (page: Page, client: ClientGlobal, docId: string, settings: Record<string, unknown> = {}): Promise<void> =>
    page.evaluate(
      ({ client, docId, base, settings }) => {
        type Factory = { createClient(settings: object): { signature: Record<string, { start(options: object): { cancel(): void } | undefined }> } };
        const state = window as unknown as { outcome?: { isCancel?: boolean; code?: string }; controls?: { cancel(): void } };
        const factory = (window as unknown as Record<string, Factory>)[client]!;
        state.controls = factory.createClient({ clientId: 'shop', docId, countryCode: 'EE', sandbox: true, apiEndpoints: { base: () => base }, ...settings }).signature.idCardSignature!.start({
          iframeHolder: document.getElementById('holder'),
          fail: (error: { isCancel?: boolean; code?: string }) => void (state.outcome = { isCancel: error.isCancel, code: error.code }),
        }) ?? undefined;
      },
      { client, docId, base: station.baseUrl, settings },
    );

  /** The newest audit entry's id: entries after it belong to the attempt under test. */
  const lastAuditId = async (): Promise<number> => (await station.data.audit.list(1))[0]?.id ?? 0;
  /** The attempt's final audit entry (logged after `after`), once the station has logged its end. */
  const auditOutcome = async (after: number) => {
    const final = async () => (await station.data.audit.list(5)).find((entry) => entry.id > after && entry.outcome !== 'started');
    await expect.poll(final).toBeDefined();
    return (await final())!;
  };

  const assertWithdrawnAndUnsigned = async (pin: PendingPrompt, docId: string, after: number): Promise<void> => {
    await expect.poll(() => station.prompts.pending()).toEqual([]);
    expect(() => station.prompts.answer(pin.id, { kind: 'pin', pin: '1234' })).toThrow(expect.objectContaining({ code: 'ERR_PROMPT_NOT_FOUND' }));
    const entry = await auditOutcome(after);
    expect(entry).toMatchObject({ outcome: 'cancelled', requester: integrator.origin, source: 'web-page', detail: 'ERR_SIGNING_REQUESTER_GONE' });
    expect((await downloadSigned(integration(), docId)).body).toMatchObject({ status: 'error' });
  };

  beforeAll(async () => {
    softhsm = await createSoftHsm();
    await softhsm.createToken('Signing Token', '1234', [{ id: '01', algorithm: 'RSA-2048', usage: 'signing' }]);
    station = await startTestStation({}, { tokenSources: [softHsmTokenSource()] });
    integrator = await startIntegrator({ scripts: [`${station.baseUrl}/client/service-browser-client.js`] });
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [integrator.origin] }, Buffer.from(SECRET));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await integrator?.close();
    await station?.dispose();
    await softhsm?.dispose();
  });

  it("serviceBrowserClient: cancel() during the PIN prompt withdraws it, fails with isCancel, signs nothing, logs 'cancelled' with the origin", async () => {
    const docId = await prepareDocument(integration());
    const after = await lastAuditId();
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    await startSigning(page, 'serviceBrowserClient', docId);
    const pin = await consentUntilPin();
    expect(pin.request.requester).toBe(integrator.origin);
    await page.evaluate(() => (window as unknown as { controls: { cancel(): void } }).controls.cancel());
    await assertWithdrawnAndUnsigned(pin, docId, after);
    expect(await page.evaluate(() => (window as unknown as { outcome?: unknown }).outcome)).toEqual({ isCancel: true, code: 'ERR_CLIENT_CANCELLED' });
    await page.close();
  });

  it("serviceBrowserClient: closing the tab during the signing consent withdraws it and logs 'cancelled', not 'declined'", async () => {
    const docId = await prepareDocument(integration());
    const after = await lastAuditId();
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    await startSigning(page, 'serviceBrowserClient', docId);
    for (let open = await waitForPrompt(); ; open = await waitForPrompt()) {
      if (open.kind === 'consent' && open.request.purpose === 'sign') break;
      station.prompts.answer(open.id, { kind: 'consent', accept: true });
      await expect.poll(() => station.prompts.pending().some((prompt) => prompt.id === open.id)).toBe(false);
    }
    await page.close();
    await expect.poll(() => station.prompts.pending()).toEqual([]);
    expect(await auditOutcome(after)).toMatchObject({ outcome: 'cancelled', requester: integrator.origin, detail: 'ERR_SIGNING_REQUESTER_GONE' });
  });

  for (const client of ['serviceBrowserClient', 'eidEasyBrowserClient'] as const) {
    it(`${client}: closing the tab during the PIN prompt withdraws it, signs nothing, logs 'cancelled' with the origin`, async () => {
      const docId = await prepareDocument(integration());
      const after = await lastAuditId();
      const page = await browser.newPage();
      await page.goto(`${integrator.origin}/`);
      await startSigning(page, client, docId);
      const pin = await consentUntilPin();
      await page.close();
      await assertWithdrawnAndUnsigned(pin, docId, after);
    });
  }

  // The helper request carries the client's timeout: the station withdraws the prompt then, even when the page
  // never says it stopped waiting (a frozen tab, a lost cancel message).
  it("withdraws a helper request's prompt when the client's own timeout passes, without the page cancelling", async () => {
    await station.data.clients.upsert({ clientId: 'shop-deadline', allowedOrigins: [integrator.origin] });
    const page = await pageWithHelper(browser, integrator, `${station.baseUrl}/web-element/os-broker/shop-deadline/id-signature`);
    await expect.poll(async () => (await helperMessages(page)).length).toBe(1);
    await askHelper(page, station.baseUrl, { operation: 'getCertificate', country: 'EE', timeoutMs: 1_500 });
    const read = await waitForPrompt();
    expect(read).toMatchObject({ kind: 'consent', request: { purpose: 'read-certificate', clientId: 'shop-deadline' } });
    await expect.poll(() => station.prompts.pending(), { timeout: 10_000 }).toEqual([]);
    await expect.poll(async () => (await helperMessages(page)).length).toBe(2);
    expect((await helperMessages(page))[1]!.data).toMatchObject({ operation: 'getCertificate', status: 'error' });
    await page.close();
  });

  it('serviceBrowserClient: helperTimeoutMs fails the flow with ERR_CLIENT_TIMEOUT (not a cancel) and withdraws the prompt', async () => {
    await station.data.clients.upsert({ clientId: 'shop-slow', allowedOrigins: [integrator.origin] }, Buffer.from(SECRET));
    const docId = await prepareDocument({ ...integration(), clientId: 'shop-slow' });
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    await startSigning(page, 'serviceBrowserClient', docId, { clientId: 'shop-slow', helperTimeoutMs: 2_000 });
    expect(await waitForPrompt()).toMatchObject({ kind: 'consent', request: { purpose: 'read-certificate', clientId: 'shop-slow' } });
    await expect.poll(() => page.evaluate(() => (window as unknown as { outcome?: unknown }).outcome), { timeout: 10_000 }).toEqual({ isCancel: false, code: 'ERR_CLIENT_TIMEOUT' });
    await expect.poll(() => station.prompts.pending()).toEqual([]);
    await page.close();
  });
});
