import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser/browser.js';
import { seriousAxeFindings } from '../support/browser/axe-audit.js';
import { screenshotPath } from '../support/browser/screenshot-path.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createTestCa, createTestSigner } from '../support/pki/test-pki.js';
import { PadesEngine } from '../../src/station/signing/pades-engine.js';
import { softKeySigner } from '../../src/station/signing/soft-key-signer.js';

describe('station UI in Chromium', () => {
  let station: TestStation;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let signer: Awaited<ReturnType<typeof createTestSigner>>;

  const go = async (screen: string): Promise<void> => {
    await page.getByRole('navigation').getByRole('button', { name: screen, exact: true }).click();
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'station-ui-'));
    const ca = await createTestCa();
    await writeFile(join(dir, 'root.pem'), ca.pem);
    signer = await createTestSigner(ca, 'CN=Verified Signer,O=Signing Station Tests,C=EE', 'P-256');
    // The verify screen checks chains against the station's trust list.
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] }, identity: { trustedIssuers: [join(dir, 'root.pem')] } });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, locale: 'en-US' });
    page = await context.newPage();
    await page.goto(station.uiUrl());
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('opens through the one-time link, drops the token from the address, and shows the mode and the screens', async () => {
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(() => page.getByTestId('mode').textContent()).toContain('Sandbox');
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('button').allTextContents()).toEqual(['Sign', 'Timestamp', 'Verify', 'Identify', 'Settings', 'Activity']);
    expect(await page.getByTestId('no-certificate').textContent()).toContain('Insert an ID card');
  });

  it('keeps its credential in this tab only: a reload works, no cookie; without a link or with a used one, a page says how to get a new one', async () => {
    await page.reload();
    await expect.poll(() => page.getByTestId('mode').textContent()).toContain('Sandbox');
    expect(await page.context().cookies()).toEqual([]);
    const other = await browser.newPage();
    await other.goto(`${station.baseUrl}/ui/`);
    await expect.poll(() => other.getByTestId('link-problem').textContent()).toContain('signing-station ui');
    // A new page per link: a link differing only in its fragment would not load the page again.
    const link = station.uiUrl();
    const second = await browser.newPage();
    await second.goto(link);
    await expect.poll(() => second.getByTestId('mode').isVisible()).toBe(true);
    const third = await browser.newPage();
    await third.goto(link);
    await expect.poll(() => third.getByTestId('link-problem').textContent()).toContain('already used');
    await third.screenshot({ path: screenshotPath('used-link.png') });
    // A new link pasted into that tab takes effect in place: the fragment changes, the page is not loaded again.
    await third.evaluate(() => Object.assign(window, { loadedOnce: true }));
    await third.goto(station.uiUrl());
    await expect.poll(() => third.getByTestId('mode').isVisible()).toBe(true);
    expect(await third.evaluate(() => (window as { loadedOnce?: boolean }).loadedOnce)).toBe(true);
    expect(new URL(third.url()).hash).toBe('');
    await Promise.all([other.close(), second.close(), third.close()]);
  });

  it('gives a page on another local port nothing that drives the station', async () => {
    const otherPort = createServer((_request, response) => response.end('<!doctype html><title>other local server</title>'));
    await new Promise<void>((resolve) => otherPort.listen(0, '127.0.0.1', resolve));
    const neighbour = await browser.newPage();
    try {
      await neighbour.goto(`http://127.0.0.1:${(otherPort.address() as AddressInfo).port}/`);
      const outcome = await neighbour.evaluate(async (base) => {
        const read = await fetch(`${base}/admin/api/events`, { credentials: 'include' }).then((response) => response.status, () => 'blocked');
        const write = await fetch(`${base}/admin/api/clients`, {
          method: 'POST',
          credentials: 'include',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ registration: { clientId: 'neighbour' } }),
        }).then((response) => response.status, () => 'blocked');
        return { read, write, cookies: document.cookie };
      }, station.baseUrl);
      expect(outcome.read).not.toBe(200);
      expect(outcome.write).toBe('blocked');
      expect(outcome.cookies).toBe('');
      expect(await station.data.clients.find('neighbour')).toBeUndefined();
    } finally {
      await neighbour.close();
      await new Promise((resolve) => otherPort.close(resolve));
    }
  });

  it('shows a signature logged by anyone as it happens, with the method and signer in plain words', async () => {
    await go('Activity');
    await station.data.audit.append({ clientId: 'shop', method: 'id-signature', signer: 'CN=Jõeorg\\, Jaak-Kristjan,2.5.4.5=PNOEE-38001085718', documentName: 'audited.pdf', documentDigest: 'cd'.repeat(32), outcome: 'signed', detail: null, source: 'web-page', requester: 'https://shop.example' });
    const log = page.getByRole('table', { name: 'Signature log' });
    await expect.poll(() => log.textContent()).toContain('Jõeorg, Jaak-Kristjan');
    const row = await log.getByRole('row', { name: /audited\.pdf/ }).textContent();
    expect(row).toContain('ID card');
    expect(row).toContain('https://shop.example');
    expect(row).not.toContain('2.5.4.5');
    await page.screenshot({ path: screenshotPath('activity.png'), fullPage: true });
  });

  it('lists the PKCS#11 modules it loads and refuses a module that does not load', async () => {
    await go('Settings');
    const loaded = page.getByRole('list', { name: 'Loaded modules' });
    await expect.poll(() => loaded.textContent()).toContain('opensc-pkcs11.so');
    const form = page.getByRole('form', { name: 'Add module' });
    await form.getByLabel('Module or NSS database path').fill('/nonexistent/libnothing-pkcs11.so');
    await form.getByRole('button', { name: 'Add module' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'PKCS#11 modules' }).getByRole('alert').textContent()).toContain('/nonexistent/libnothing-pkcs11.so');
    expect(await page.getByRole('list', { name: 'Added modules' }).count()).toBe(0);
  });

  it('adds a client from the form, shows one added elsewhere at once, and removes only after a confirmation', async () => {
    await go('Settings');
    const form = page.getByRole('form', { name: 'Add client' });
    await form.getByLabel('Client id').fill('shop');
    await form.getByLabel('Allowed web origins').fill('https://shop.example');
    await form.getByRole('button', { name: 'Add client' }).click();
    const table = page.getByRole('table', { name: 'Web clients' });
    await expect.poll(() => table.getByRole('cell', { name: 'shop', exact: true }).isVisible()).toBe(true);
    expect((await station.data.clients.get('shop')).allowedOrigins).toEqual(['https://shop.example']);

    await station.data.clients.upsert({ clientId: 'added-by-cli', allowedOrigins: ['https://cli.example'] });
    await expect.poll(() => table.getByRole('cell', { name: 'added-by-cli', exact: true }).isVisible()).toBe(true);

    await form.getByLabel('Client id').fill('bad id');
    await form.getByRole('button', { name: 'Add client' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Web clients' }).getByRole('alert').textContent()).toContain('clientId');

    await page.screenshot({ path: screenshotPath('settings.png'), fullPage: true });
    const row = table.getByRole('row', { name: /^shop/ });
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Keep' }).click();
    expect(await station.data.clients.find('shop')).toBeDefined();
    await row.getByRole('button', { name: 'Remove' }).click();
    await row.getByRole('button', { name: 'Yes, remove' }).click();
    await expect.poll(() => station.data.clients.find('shop')).toBeUndefined();
  });

  it('shows a consent prompt with the real requester, the signer in plain words and a countdown; Sign and Decline look different; the answer is confirmed', async () => {
    await go('Sign');
    const consent = station.prompts.confirm({
      purpose: 'sign',
      requester: 'https://shop.example',
      requesterKind: 'web-page',
      clientId: 'shop',
      documentName: 'contract.pdf',
      documentDigest: 'ab'.repeat(32),
      signerSubject: 'CN=Jõeorg\\, Jaak-Kristjan,2.5.4.5=PNOEE-38001085718,C=EE',
      signerIssuer: 'CN=Test CA',
      signerSerialNumber: '01',
      reason: 'I agree',
    });
    // The site's name first, the full origin (scheme and port are part of who asks) beside it.
    const prompt = page.getByRole('article', { name: 'shop.example (https://shop.example) asks you to sign.' });
    await expect.poll(() => prompt.textContent()).toContain('contract.pdf');
    const text = await prompt.textContent();
    expect(text).toContain('Serial number: PNOEE-38001085718');
    expect(text).not.toContain('2.5.4.5');
    await expect.poll(() => page.getByRole('region', { name: 'Waiting for you' }).textContent()).toMatch(/Closes in [45]:\d\d/);
    const signClass = await prompt.getByRole('button', { name: 'Sign' }).getAttribute('class');
    const declineClass = await prompt.getByRole('button', { name: 'Decline' }).getAttribute('class');
    expect(signClass).toContain('primary');
    expect(declineClass).toContain('danger');
    await page.screenshot({ path: screenshotPath('consent.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await prompt.getByRole('button', { name: 'Sign' }).click();
    expect(await consent).toBe(true);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Answered' }).textContent()).toBe('Answered: you agreed.');

    const declined = station.prompts.confirm({ purpose: 'sign', requester: 'cli', documentDigest: '00', signerSubject: 'CN=s', signerIssuer: 'CN=i', signerSerialNumber: '1' });
    await page.getByRole('button', { name: 'Decline' }).click();
    expect(await declined).toBe(false);
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Answered' }).textContent()).toBe('Answered: you declined.');
    // Said for a while, then gone: it does not go on speaking of an old answer.
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Answered' }).count(), { timeout: 12_000 }).toBe(0);
  });

  it('asks for a PIN in the station’s own page, with tries left', async () => {
    const pin = station.prompts.askPin({ tokenLabel: 'TestToken', pinLabel: 'signing PIN', retriesLeft: 2, finalTry: false, previousAttemptFailed: true, requester: 'cli' });
    const form = page.getByRole('form', { name: 'PIN' });
    await expect.poll(() => form.textContent()).toContain('Wrong PIN.');
    expect(await form.textContent()).toContain('Tries left: 2');
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');
    expect(Buffer.from((await pin)!).toString()).toBe('1234');
  });

  it('warns in the PIN prompt when the token flags its tries as running low, without a count', async () => {
    const pin = station.prompts.askPin({ tokenLabel: 'TestToken', pinLabel: 'signing PIN', finalTry: false, countLow: true, previousAttemptFailed: true, requester: 'cli' });
    const form = page.getByRole('form', { name: 'PIN' });
    await expect.poll(() => form.textContent()).toContain('Few tries left before the PIN is blocked.');
    expect(await form.textContent()).not.toContain('Tries left');
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');
    expect(Buffer.from((await pin)!).toString()).toBe('1234');
  });

  it('tries an identification method from the Identify screen: the sandbox Smart-ID confirms one person and refuses another', async () => {
    await go('Identify');
    const form = page.getByRole('form', { name: 'Identify' });
    await form.getByLabel('Method').selectOption({ label: 'Smart-ID (sandbox)' });
    await form.getByLabel('Personal code').fill('30303039914');
    await form.getByLabel('Country').fill('EE');
    await form.getByRole('button', { name: 'Identify' }).click();
    // While the simulated phone waits: the verification code to compare there, and the time left.
    const code = page.getByTestId('verification-code');
    await expect.poll(() => code.textContent()).toMatch(/^Verification code: \d{4}Confirm on your phone only if it shows the same code\.Waiting for you to confirm; ends in [23]:\d\d\.$/);
    await expect.poll(() => page.getByTestId('identified').textContent(), { timeout: 15_000 }).toContain('TESTNUMBER');
    expect(await code.count()).toBe(0);
    expect(await page.getByTestId('identified').textContent()).toContain('30303039914');
    await form.getByLabel('Personal code').fill('30403039917');
    await form.getByRole('button', { name: 'Identify' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Identify' }).getByRole('alert').textContent(), { timeout: 15_000 }).toBeTruthy();
    expect(await page.getByTestId('identified').count()).toBe(0);
  });

  it('speaks the browser’s language, switches in place, and formats dates the local way', async () => {
    for (const [locale, sign] of [['et-EE', 'Allkirjasta'], ['lv-LV', 'Parakstīt'], ['lt-LT', 'Pasirašyti'], ['ru-RU', 'Подписать'], ['de-DE', 'Sign']] as const) {
      const context = await browser.newContext({ locale });
      const localized = await context.newPage();
      await localized.goto(station.uiUrl());
      await expect.poll(() => localized.getByRole('navigation').getByRole('button').first().textContent()).toBe(sign);
      await context.close();
    }
    await page.getByLabel('Language').first().selectOption('et');
    await expect.poll(() => page.getByRole('navigation').getByRole('button').first().textContent()).toBe('Allkirjasta');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('et');
    await page.getByRole('navigation').getByRole('button', { name: 'Tegevused' }).click();
    const time = await page.getByRole('table', { name: 'Allkirjade logi' }).getByRole('row').nth(1).getByRole('cell').first().textContent();
    expect(time).toMatch(/\d{1,2}\. \p{L}+ \d{4}/u);
    await page.getByLabel('Keel').first().selectOption('en');
  });

  it('verifies a signed file on the Verify screen with the station’s own verification, one line per signature, detail one click away', async () => {
    {
      const signed = join(dir, 'signed.pdf');
      const prepared = await PadesEngine.prepare(await writeMinimalPdf(join(dir, 'in.pdf'), 'Pay 100 EUR'), { certificate: signer.der, reason: 'Agreed' });
      const value = await softKeySigner(signer.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm);
      await PadesEngine.finish(prepared.state, value, { outputPath: signed });
      await go('Verify');
      const screen = page.getByRole('region', { name: 'Verify a signed file' });
      const result = page.getByRole('status', { name: 'Verification result' });
      await screen.getByLabel('Choose files').setInputFiles(signed);
      await screen.getByRole('button', { name: 'Verify', exact: true }).click();
      await expect.poll(() => result.textContent()).toContain('signed.pdf: all 1 valid');
      expect(await result.textContent()).toContain('TOTAL-PASSED PAdES B-B signature by CN=Verified Signer');
      expect(await result.textContent()).toContain('reason "Agreed"');
      expect(await result.getByText('Technical detail').count()).toBe(1);

      const tampered = join(dir, 'tampered.pdf');
      const bytes = await readFile(signed);
      bytes.write('Pay 900 EUR', bytes.indexOf('Pay 100 EUR'), 'latin1');
      await writeFile(tampered, bytes);
      await screen.getByLabel('Choose files').setInputFiles(tampered);
      await screen.getByRole('button', { name: 'Verify', exact: true }).click();
      await expect.poll(() => result.textContent()).toContain('tampered.pdf: NOT valid');
      expect(await result.textContent()).toContain('TOTAL-FAILED/HASH_FAILURE: the signed content was changed after signing');
    }
  });

  it('every screen passes an accessibility audit (axe-core, WCAG 2.1 AA) with no serious finding', async () => {
    for (const screen of ['Sign', 'Timestamp', 'Verify', 'Identify', 'Settings', 'Activity']) {
      await go(screen);
      expect({ screen, findings: await seriousAxeFindings(page) }).toEqual({ screen, findings: [] });
    }
    await go('Sign');
    await page.screenshot({ path: screenshotPath('sign-empty.png'), fullPage: true });
    expect((await stat(screenshotPath('sign-empty.png'))).size).toBeGreaterThan(10_000);
  });
});
