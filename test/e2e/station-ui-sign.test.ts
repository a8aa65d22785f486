import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser/browser.js';
import { seriousAxeFindings } from '../support/browser/axe-audit.js';
import { screenshotPath } from '../support/browser/screenshot-path.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { createSoftHsm, type SoftHsm, softHsmTokenSource } from '../support/pkcs11/pkcs11-softhsm.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { cmsParts, createNssDb, embeddedSignatures, opensslTsVerify, pdfsig } from '../support/signing/signing-validators.js';
import { extractZip } from '../support/signing/signing-zip-extract.js';
import { pem } from '../support/pkcs11/pkcs11-nss-database.js';

/** Presses Tab (and nothing else) until the focused element is the one `matches` picks; fails after 40 presses. */
async function tabTo(page: Page, matches: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((selector) => document.activeElement?.matches(selector) ?? false, matches)) return;
  }
  throw new Error(`Tab never reached ${matches}`);
}

describe('signing and timestamping from the station window, in Chromium, with a SoftHSM token', () => {
  let softhsm: SoftHsm;
  let station: TestStation;
  let browser: Browser;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ui-sign-'));
    softhsm = await createSoftHsm();
    await softhsm.createToken('Desk Token', '1234', [{ id: '0a', algorithm: 'RSA-2048', usage: 'signing' }]);
    const source = softHsmTokenSource({ pollIntervalMs: 100, reinitializeIntervalMs: 200 });
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } }, { tokenSources: [source] });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' })).newPage();
    await page.goto(station.uiUrl());
    await page.getByTestId('mode').waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows a token plugged in while the window is open, with the token and certificate ids the command line takes', async () => {
    // First: a module is re-initialised to find new tokens only while no login is kept on it.
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    // Keys cannot be generated here while the station holds the module: an empty token is plugged in.
    await softhsm.createToken('Second Token', '4321', []);
    const tokens = page.getByRole('list', { name: 'Cards, tokens and certificate stores' });
    await expect.poll(() => tokens.textContent(), { timeout: 10_000 }).toContain('Second Token');
    expect(await tokens.textContent()).toMatch(/Token id: pkcs11-[0-9a-f]{16}/);
    expect(await tokens.textContent()).toContain('Certificate id: 0a');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });


  it('signs a PDF with the keyboard alone: file, certificate, reason, consent, a wrong PIN asked again in place, the result saved beside the others', async () => {
    const original = join(dir, 'contract.pdf');
    await writeFile(original, minimalPdf('Contract to sign from the window'));
    await expect.poll(() => page.getByLabel('Signing certificate').textContent()).toContain('Desk Token');

    await tabTo(page, 'input[type=file]');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(original);
    await expect.poll(() => page.getByRole('list', { name: 'Files' }).textContent()).toContain('contract.pdf');
    expect(await page.getByRole('form', { name: 'Sign documents' }).textContent()).toContain('PDF signature (PAdES)');
    await tabTo(page, 'select[name=certificate]');
    await tabTo(page, 'input[name=reason]');
    await page.keyboard.type('I approve this contract');
    await page.screenshot({ path: screenshotPath('sign.png'), fullPage: true });
    expect(await seriousAxeFindings(page)).toEqual([]);
    await tabTo(page, 'form[aria-label="Sign documents"] button[type=submit]');
    await page.keyboard.press('Enter');

    // The consent takes the focus: Tab to its Sign button.
    const consent = page.getByRole('article', { name: /asks you to sign/ });
    await expect.poll(() => consent.textContent()).toContain('I approve this contract');
    expect(await consent.textContent()).toContain(station.baseUrl);
    await tabTo(page, '.prompt .button.primary');
    await page.keyboard.press('Enter');

    const pin = page.getByRole('form', { name: 'PIN' });
    await expect.poll(() => pin.isVisible()).toBe(true);
    await page.keyboard.type('0000');
    await page.keyboard.press('Enter');
    await expect.poll(() => pin.textContent()).toContain('Wrong PIN.');
    expect(await station.prompts.pending()).toHaveLength(1);
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');

    const result = page.getByTestId('result');
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toContain('Signed.');
    const path = (await page.getByTestId('saved-path').textContent())!;
    expect(path).toMatch(/contract-signed( \(\d+\))?\.pdf$/);
    expect(path.startsWith(station.window.outputDir)).toBe(true);
    expect(await readFile(original)).toEqual(minimalPdf('Contract to sign from the window'));
    const report = await pdfsig(await createNssDb(join(dir, 'nss'), softhsm.ca.pem), path);
    expect(report.signatures.map((signature) => signature.valid), report.output).toEqual([true]);
    expect(Buffer.from(await readFile(path)).toString('latin1')).toContain('I approve this contract');
    expect(cmsParts(embeddedSignatures(await readFile(path))[0]!.cms).timestampToken).toBeDefined();

    await page.getByRole('navigation').getByRole('button', { name: 'Activity' }).click();
    const log = page.getByRole('table', { name: 'Signature log' });
    await expect.poll(() => log.getByRole('row', { name: /contract\.pdf/ }).first().textContent()).toContain('this window');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });

  it('signs at the level chosen: B-B carries no signature timestamp (the B-T default does: see the first signature)', async () => {
    const original = join(dir, 'level.pdf');
    await writeFile(original, minimalPdf('Level B-B'));
    await page.locator('input[type=file]').first().setInputFiles(original);
    await page.getByLabel('Level').selectOption('B-B');
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 15_000 }).toMatch(/level-signed( \(\d+\))?\.pdf$/);
    const [signature] = embeddedSignatures(await readFile((await page.getByTestId('saved-path').textContent())!));
    expect(cmsParts(signature!.cms).timestampToken).toBeUndefined();
  });

  it('puts several files into an ASiC-E container, showing the upload progress; the token stays logged in briefly, so no second PIN', async () => {
    const a = join(dir, 'notes.txt');
    const b = join(dir, 'data.csv');
    await writeFile(a, 'notes\n');
    await writeFile(b, 'a,b\n1,2\n');
    await page.locator('input[type=file]').first().setInputFiles([a, b]);
    expect(await page.getByRole('form', { name: 'Sign documents' }).textContent()).toContain('ASiC-E container');
    // The bar may come and go within a frame on loopback: an observer notes that it was there at all.
    await page.evaluate(() => {
      new MutationObserver(() => {
        if (document.querySelector('progress')) (window as unknown as { sawProgress: boolean }).sawProgress = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    const result = page.getByTestId('result');
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 15_000 }).toMatch(/notes( \(\d+\))?\.asice$/);
    const path = (await page.getByTestId('saved-path').textContent())!;
    expect(await page.evaluate(() => (window as unknown as { sawProgress?: boolean }).sawProgress)).toBe(true);
    const entries = await extractZip(path, join(dir, 'asice'));
    expect(entries).toEqual(expect.arrayContaining(['mimetype', 'notes.txt', 'data.csv', 'META-INF/manifest.xml']));
  });

  it('adds a signature to an existing ASiC-E container, keeping the first, and saves it under a new name', async () => {
    const container = join(dir, 'existing.asice');
    await writeFile(container, await readFile((await page.getByTestId('saved-path').textContent())!));
    await page.locator('input[type=file]').first().setInputFiles(container);
    expect(await page.getByRole('form', { name: 'Sign documents' }).textContent()).toContain('Add a signature to this ASiC-E container');
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 15_000 }).toMatch(/existing( \(\d+\))?\.asice$/);
    const path = (await page.getByTestId('saved-path').textContent())!;
    const entries = await extractZip(path, join(dir, 'asice-2'));
    expect(entries).toEqual(expect.arrayContaining(['notes.txt', 'data.csv', 'META-INF/signatures0.xml', 'META-INF/signatures1.xml']));
    expect(entries).not.toContain('existing.asice');
  });

  it('timestamps a file; the .tsr verifies with openssl against the station TSA', async () => {
    const file = join(dir, 'minutes.txt');
    await writeFile(file, 'minutes of the meeting\n');
    await page.getByRole('navigation').getByRole('button', { name: 'Timestamp' }).click();
    await page.locator('input[type=file]').setInputFiles(file);
    await page.getByRole('button', { name: 'Timestamp', exact: true }).last().click();
    const result = page.getByTestId('result');
    await expect.poll(() => result.textContent()).toContain('Timestamped.');
    await page.screenshot({ path: screenshotPath('timestamp.png'), fullPage: true });
    const path = (await page.getByTestId('saved-path').textContent())!;
    const root = join(dir, 'tsa-root.pem');
    await writeFile(root, pem('CERTIFICATE', station.tsa.certificates.at(-1)!));
    const verified = await opensslTsVerify(await readFile(file), await readFile(path), root);
    expect(verified.stdout + verified.stderr).toContain('Verification: OK');
  });

});
