import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser/browser.js';
import { seriousAxeFindings } from '../support/browser/axe-audit.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { createSoftHsm, type SoftHsm, softHsmTokenSource } from '../support/pkcs11/pkcs11-softhsm.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';

/**
 * A signer's way through the window in a small (800x600) window: screens switched in the middle of a signing, a
 * cancelled signing, and the result brought into view.
 */
describe('the station window keeps a signing and its choices across screens, in an 800x600 Chromium window', () => {
  let softhsm: SoftHsm;
  let station: TestStation;
  let browser: Browser;
  let page: Page;
  let dir: string;

  const go = (name: string): Promise<void> => page.getByRole('navigation').getByRole('button', { name, exact: true }).click();
  const pdf = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, minimalPdf(text));
    return path;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ui-journey-'));
    softhsm = await createSoftHsm();
    await softhsm.createToken('Journey Token', '1234', [{ id: '0b', algorithm: 'P-256', usage: 'signing' }]);
    const source = softHsmTokenSource({ pollIntervalMs: 100, reinitializeIntervalMs: 200 });
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } }, { tokenSources: [source] });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 800, height: 600 }, locale: 'en-US' })).newPage();
    await page.goto(station.uiUrl());
    await page.getByLabel('Signing certificate').getByRole('option', { name: /Journey Token/ }).waitFor({ state: 'attached', timeout: 10_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('a signing whose PIN prompt is cancelled after a wrong PIN says so, saves nothing, and is in Activity as declined', async () => {
    await page.locator('input[type=file]:visible').setInputFiles(await pdf('cancelled.pdf', 'To be cancelled'));
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: 'This window asks you to sign.' }).getByRole('button', { name: 'Sign' }).click();
    const pin = page.getByRole('form', { name: 'PIN' });
    await pin.waitFor({ timeout: 10_000 });
    await pin.getByLabel('PIN').fill('0000');
    await pin.getByLabel('PIN').press('Enter');
    await expect.poll(() => pin.textContent(), { timeout: 10_000 }).toContain('Wrong PIN.');
    await pin.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 10_000 }).toBe('Not signed: you cancelled the signing. Nothing was saved.');
    // Said in the language chosen now, not the one it happened in.
    await page.getByLabel('Language').first().selectOption('ru');
    expect(await page.getByRole('alert').textContent()).toBe('Не подписано: вы отменили подписание. Ничего не сохранено.');
    await page.getByLabel('Язык').first().selectOption('en');
    // Nothing saved: the output folder holds no copy of it (it is not even made before a first save).
    expect(await readdir(station.window.outputDir).catch(() => [])).not.toContainEqual(expect.stringMatching(/^cancelled/));
    await go('Activity');
    const row = page.getByRole('table', { name: 'Signature log' }).getByRole('row', { name: /cancelled\.pdf/ });
    await expect.poll(() => row.textContent()).toContain('declined');
    await go('Sign');
    // Not signed, so it stays chosen until taken out.
    await page.getByRole('button', { name: 'Remove cancelled.pdf' }).click();
  });

  it('keeps the files, box and reason while other screens are shown, and a signing goes on with its PIN prompt answered from another screen', async () => {
    await page.locator('input[type=file]:visible').setInputFiles(await pdf('travels.pdf', 'A document that travels'));
    await page.getByLabel('Visible signature on the page').check();
    const box = page.getByTestId('signature-box');
    await box.focus();
    await page.keyboard.press('Shift+ArrowRight');
    const placed = await box.getAttribute('aria-label');
    await page.getByLabel('Reason (optional)').fill('Kept across screens');

    await go('Verify');
    await page.getByRole('heading', { name: 'Verify a signed file' }).waitFor();
    await go('Sign');
    expect(await page.getByRole('list', { name: 'Files' }).textContent()).toContain('travels.pdf');
    expect(await page.getByLabel('Reason (optional)').inputValue()).toBe('Kept across screens');
    expect(await box.getAttribute('aria-label')).toBe(placed);

    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: 'This window asks you to sign.' }).getByRole('button', { name: 'Sign' }).click();
    const pin = page.getByRole('form', { name: 'PIN' });
    await pin.waitFor({ timeout: 10_000 });
    // The wrong PIN typed before the last signing was cancelled belongs to that signing: this prompt starts afresh.
    expect(await pin.textContent()).not.toContain('Wrong PIN.');
    // Elsewhere in the window, the prompt is still there, above the other screen: the PIN typed there finishes it.
    await go('Settings');
    await page.getByRole('heading', { name: 'Cards, tokens and certificate stores' }).waitFor();
    expect(await pin.isVisible()).toBe(true);
    await pin.getByLabel('PIN').fill('1234');
    await pin.getByLabel('PIN').press('Enter');
    // The attempt is logged as started when the digest is handed out, then completed by its outcome.
    const newest = (): Promise<string | null> => station.data.audit.list(1).then(([entry]) => (entry ? `${entry.documentName} ${entry.outcome}` : null));
    await expect.poll(newest, { timeout: 15_000 }).toBe('travels.pdf signed');

    await go('Sign');
    await expect.poll(() => page.getByTestId('saved-name').textContent(), { timeout: 10_000 }).toMatch(/^travels.*\.pdf$/);
    expect(await seriousAxeFindings(page)).toEqual([]);
  });

  it('brings the result into view with the focus on it, below a long form in an 800x600 window', async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('input[type=file]:visible').setInputFiles(await pdf('focused.pdf', 'Result in view'));
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: 'This window asks you to sign.' }).getByRole('button', { name: 'Sign' }).click();
    // The token may still be logged in from the signature before: the PIN is asked only if it is not.
    const pin = page.getByRole('form', { name: 'PIN' });
    const result = page.getByTestId('result');
    await result.or(pin).first().waitFor({ timeout: 15_000 });
    if ((await pin.count()) > 0) {
      await pin.getByLabel('PIN').fill('1234');
      await pin.getByLabel('PIN').press('Enter');
    }
    await result.waitFor({ timeout: 15_000 });
    expect(await result.textContent()).toContain('focused');
    // The signing is over: the line saying what was answered in its prompts is gone, the result speaks instead.
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Answered' }).count(), { timeout: 2_000 }).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName)).toBe('sign-outcome');
    const inView = await result.evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return rect.top >= 0 && rect.top < window.innerHeight;
    });
    expect(inView).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });

  it('starts a new document with no result, reason or box of the last one', async () => {
    expect(await page.getByTestId('result').count()).toBe(1);
    await page.locator('input[type=file]:visible').setInputFiles(await pdf('first.pdf', 'The first document'));
    await page.getByLabel('Reason (optional)').fill('Only for first.pdf');
    await page.getByLabel('Visible signature on the page').check();
    await page.getByTestId('signature-box').waitFor();
    await page.getByRole('button', { name: 'Remove first.pdf' }).click();
    await page.locator('input[type=file]:visible').setInputFiles(await pdf('next.pdf', 'The next document'));
    await expect.poll(() => page.getByTestId('result').count()).toBe(0);
    expect(await page.getByLabel('Reason (optional)').inputValue()).toBe('');
    expect(await page.getByLabel('Visible signature on the page').isChecked()).toBe(false);
    expect(await page.getByTestId('signature-box').count()).toBe(0);
  });
  it('fits Settings into 800 px in Russian: no sideways scroll, each Remove button inside its card', async () => {
    await station.data.clients.upsert({ clientId: 'shop-with-a-long-client-id', allowedOrigins: ['https://shop.example', 'https://www.shop.example'] });
    await page.getByLabel('Language').selectOption('ru');
    try {
      await page.getByRole('navigation').getByRole('button', { name: 'Настройки' }).click();
      const remove = page.getByRole('button', { name: 'Удалить' });
      await expect.poll(() => remove.count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      for (const button of await remove.all()) {
        const inside = await button.evaluate((element) => {
          const card = element.closest('.panel')!.getBoundingClientRect();
          const own = element.getBoundingClientRect();
          return own.left >= card.left && own.right <= card.right;
        });
        expect(inside).toBe(true);
      }
      expect(await seriousAxeFindings(page)).toEqual([]);
    } finally {
      await page.getByLabel('Язык').first().selectOption('en');
    }
  });
});
