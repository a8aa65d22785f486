import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CardProcess } from '../cards/card-process.js';
import { waitFor } from '../support/pcsc/pcsc-test-env.js';
import { startCardBehindPcscd, type CardBehindPcscd } from '../support/pcsc/card-behind-pcscd.js';
import { launchChromium } from '../support/browser/browser.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createNssDb, pdfsig } from '../support/signing/signing-validators.js';

const SIGN_PIN = '12345';

// The window signs with an ID card the way a web page does: the browser client's ID-card module, the station's
// iframe helper, the card behind the real pcscd; consent and PIN2 in the window's own prompt.
describe('signing from the station window with an ID card (pcscd, emulated national-ID card)', () => {
  let reader: CardBehindPcscd;
  let card: CardProcess;
  let station: TestStation;
  let browser: Browser;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ui-card-'));
    reader = await startCardBehindPcscd({ kind: 'national-id', nationalId: { subject: 'CN=KASK\\,KAAREL\\,38001010000,2.5.4.4=KASK,2.5.4.42=KAAREL,2.5.4.5=PNOEE-38001010000,C=EE', signPin: SIGN_PIN } });
    ({ card } = reader);
    station = await startTestStation({});
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-US' })).newPage();
    await page.goto(station.uiUrl());
    await page.getByTestId('mode').waitFor();
    await card.insert();
    await waitFor('the card', () => station.tokens.tokens().some((token) => token.kind === 'pcsc'), 10_000);
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
    await reader?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** Sign, agree in the consent, and type PIN2 when the prompt asks for it. */
  async function signWithPin2(): Promise<void> {
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    const pin = page.getByRole('form', { name: 'PIN' });
    await expect.poll(() => pin.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await pin.textContent()).toContain('PIN2');
    await page.keyboard.type(SIGN_PIN);
    await page.keyboard.press('Enter');
  }

  it('signs a PDF with the card through the browser client’s ID-card module; PIN2 in the window; pdfsig accepts it', async () => {
    const original = join(dir, 'card-contract.pdf');
    await writeFile(original, minimalPdf('Signed with an ID card from the window'));
    await expect.poll(() => page.getByLabel('Signing certificate').textContent(), { timeout: 10_000 }).toContain('KASK');
    await page.locator('input[type=file]').first().setInputFiles(original);
    await signWithPin2();
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 20_000 }).toMatch(/card-contract\.signed( \(\d+\))?\.pdf$/);
    const helper = await page.getByTestId('signing-helper').locator('iframe').getAttribute('src');
    expect(helper).toContain('/web-element/os-broker/signing-station-desk/id-signature?doc_id=');
    const path = (await page.getByTestId('saved-path').textContent())!;
    const report = await pdfsig(await createNssDb(join(dir, 'nss'), card.caPem), path);
    expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true, totalDocumentSigned: true });
    expect(await readFile(original)).toEqual(minimalPdf('Signed with an ID card from the window'));
  });

  it('says the card asks the PIN for every signature, never shows it unlocked, and the next signature asks PIN2 again', async () => {
    const original = join(dir, 'card-second.pdf');
    await writeFile(original, minimalPdf('Second signature with the card'));
    await page.locator('input[type=file]').first().setInputFiles(original);
    const note = page.getByRole('form', { name: 'Sign documents' }).getByTestId('pin-every-signature');
    await expect.poll(() => note.textContent()).toMatch(/KASK.* asks the PIN for every signature: it never stays unlocked\./);
    expect(await page.getByTestId('unlocked-tokens').count()).toBe(0);
    await signWithPin2();
    await expect.poll(() => page.getByTestId('saved-path').textContent(), { timeout: 20_000 }).toMatch(/card-second\.signed( \(\d+\))?\.pdf$/);
    expect(await page.getByTestId('unlocked-tokens').count()).toBe(0);
    // Settings lists each of the card's keys as asking the PIN for every signature.
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    const keys = page.getByRole('list', { name: 'Cards, tokens and certificate stores' }).getByTestId('pin-every-signature');
    await expect.poll(() => keys.count()).toBe(2);
    expect(await keys.first().textContent()).toContain('asks the PIN for every signature');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });
});
