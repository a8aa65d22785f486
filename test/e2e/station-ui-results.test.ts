import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { seriousAxeFindings } from '../support/browser/axe-audit.js';
import type { TestStation } from '../support/station/test-station.js';
import { openStationWindow, type StationWindowTestbed } from '../support/browser/station-window-testbed.js';
import { tabTo } from '../support/browser/tab-to.js';
import { timestampInWindow } from '../support/browser/timestamp-in-window.js';
import { uiHeaders } from '../support/station/ui-credential.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';

/** The element that has the keyboard focus, by its accessible label (the verdict's is "Verification result"). */
const focusedLabel = (page: Page): Promise<string | null> => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);

describe('a result in the window: where it is saved, and verified from there, in Chromium', () => {
  let testbed: StationWindowTestbed;
  let station: TestStation;
  let page: Page;
  let dir: string;
  let chosen: string;

  beforeAll(async () => {
    testbed = await openStationWindow({ dirPrefix: 'ui-results-', token: { label: 'Results Token', pin: '1234', keys: [{ id: '0c', algorithm: 'P-256', usage: 'signing' }] } });
    ({ station, page, dir } = testbed);
  });
  afterAll(() => testbed?.dispose());

  it('says where the next result is saved, and follows the folder chosen through the station (as a headless host sets it)', async () => {
    const savesTo = page.getByTestId('saves-to');
    expect(await savesTo.textContent()).toBe(`Saves to: ${station.window.outputDir}`);
    chosen = await realpath(dir).then(async (real) => {
      await mkdir(join(real, 'Signed here'));
      return join(real, 'Signed here');
    });
    const ui = await uiHeaders(station.uiUrl());
    const answer = await fetch(`${station.baseUrl}/admin/api/desk/output-folder`, { method: 'PUT', headers: { ...ui, 'content-type': 'application/json' }, body: JSON.stringify({ path: chosen }) });
    expect(answer.status).toBe(200);
    await expect.poll(() => savesTo.textContent()).toBe(`Saves to: ${chosen}`);

    // A browser tab cannot browse the user's folders: Settings shows the folder and offers no "Change…".
    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    expect(await page.getByTestId('output-folder').textContent()).toBe(chosen);
    expect(await page.getByRole('button', { name: 'Change…' }).count()).toBe(0);
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });

  it('signs into the chosen folder; "Verify this file", by keyboard, opens the Verify screen with the result verified and the verdict focused', async () => {
    const original = join(dir, 'offer.pdf');
    await writeFile(original, minimalPdf('Offer to verify from its result'));
    await expect.poll(() => page.getByLabel('Signing certificate').textContent()).toContain('Results Token');
    await page.locator('input[type=file]').first().setInputFiles(original);
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    const pin = page.getByRole('form', { name: 'PIN' });
    await expect.poll(() => pin.isVisible(), { timeout: 10_000 }).toBe(true);
    await page.keyboard.type('1234');
    await page.keyboard.press('Enter');
    const result = page.getByTestId('result');
    await expect.poll(() => result.textContent(), { timeout: 15_000 }).toContain('Signed.');
    expect(await page.getByTestId('saved-path').textContent()).toBe(join(chosen, 'offer.signed.pdf'));
    expect(await readdir(chosen)).toEqual(['offer.signed.pdf']);
    // In a browser tab the result is a download; opening it is the desktop app's.
    expect(await result.getByRole('button', { name: 'Open', exact: true }).count()).toBe(0);
    expect(await result.getByRole('button', { name: 'Download offer.signed.pdf' }).count()).toBe(1);

    // The focus is on the result (it moved there when signing ended): Tab reaches its "Verify this file".
    await tabTo(page, '[data-testid=result] .actions button:last-child');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Verify this file');
    await page.keyboard.press('Enter');
    const verdict = page.getByRole('status', { name: 'Verification result' });
    await expect.poll(() => verdict.textContent(), { timeout: 15_000 }).toContain('offer.signed.pdf');
    expect(await page.getByRole('navigation').getByRole('button', { name: 'Verify' }).getAttribute('aria-current')).toBe('page');
    expect(await verdict.textContent()).toContain('Signature by');
    expect(await focusedLabel(page)).toBe('Verification result');
    expect(await seriousAxeFindings(page)).toEqual([]);
  });

  it('verifies one PDF of a batch signed separately from its line in the progress list', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
    const paths = ['one.pdf', 'two.pdf'].map((name) => join(dir, name));
    for (const path of paths) await writeFile(path, minimalPdf(`batch ${path}`));
    await page.locator('input[type=file]').first().setInputFiles(paths);
    await page.getByLabel('Each PDF separately, as its own signed PDF (one consent for all)').check();
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    const summary = page.getByTestId('batch-summary');
    // The token may still be unlocked from the signature before: a PIN prompt, if any, is answered.
    const pin = page.locator('form[aria-label="PIN"]:has(button[type=submit]:not([disabled]))');
    await pin.or(summary).first().waitFor({ timeout: 20_000 });
    if (await pin.isVisible()) await pin.locator('input[name=pin]').fill('1234').then(() => pin.locator('input[name=pin]').press('Enter'));
    await expect.poll(() => summary.textContent(), { timeout: 20_000 }).toBe('2 of 2 documents signed.');
    await page.getByRole('button', { name: 'Verify two.signed.pdf' }).click();
    const verdict = page.getByRole('status', { name: 'Verification result' });
    await expect.poll(() => verdict.textContent(), { timeout: 15_000 }).toContain('two.signed.pdf');
    expect(await focusedLabel(page)).toBe('Verification result');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });

  it('verifies a timestamp token with the file it is over, which the window still holds: valid, not "file not found"', async () => {
    const file = join(dir, 'minutes.txt');
    await writeFile(file, 'minutes of the meeting\n');
    const result = await timestampInWindow(page, file);
    expect(await page.getByTestId('saved-path').filter({ visible: true }).textContent()).toBe(join(chosen, 'minutes.txt.tsr'));
    await result.getByRole('button', { name: 'Verify this file' }).click();
    const verdict = page.getByRole('status', { name: 'Verification result' });
    await expect.poll(() => verdict.textContent(), { timeout: 15_000 }).toContain('minutes.txt.tsr: all 1 valid');
    expect(await focusedLabel(page)).toBe('Verification result');

    // Leaving the screen forgets the request: back on Verify, only what the user then picks is verified.
    const verifications: string[] = [];
    page.on('request', (request) => request.url().endsWith('/admin/api/verify') && verifications.push(request.postDataJSON().fileName));
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
    await page.getByRole('navigation').getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('region', { name: 'Verify a signed file' }).getByLabel('Choose files').setInputFiles(join(chosen, 'offer.signed.pdf'));
    await page.getByRole('button', { name: 'Verify', exact: true }).last().click();
    await expect.poll(() => verdict.textContent()).toContain('offer.signed.pdf');
    expect(verifications).toEqual(['offer.signed.pdf']);
  });
});

describe('the desktop app’s result actions and folder choice, with the preload’s bridge stood in for in Chromium', () => {
  let testbed: StationWindowTestbed;
  let station: TestStation;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    testbed = await openStationWindow({ dirPrefix: 'ui-results-desktop-', token: { label: 'Desktop Token', pin: '1234', keys: [{ id: '0d', algorithm: 'P-256', usage: 'signing' }] } });
    ({ station, dir } = testbed);
    dir = await realpath(dir);
    // The window as Electron's preload shows it: `stationShell`, handing over the credential as main does, whose
    // folder dialog answers what the test puts in `__nextFolder`, and which records what the window asked main to open.
    const context = await testbed.browser.newContext({ viewport: { width: 800, height: 600 }, locale: 'et-EE' });
    await context.addInitScript((credential: string) => {
      const record = window as unknown as { __opened: string[]; __nextFolder: string | null };
      record.__opened = [];
      record.__nextFolder = null;
      Object.defineProperty(window, 'stationShell', {
        value: {
          platform: 'linux',
          getStartAtLogin: async () => ({ ok: true, value: false }),
          setStartAtLogin: async (enabled: boolean) => ({ ok: true, value: enabled }),
          uiCredential: async () => ({ ok: true, value: credential }),
          showItemInFolder: async () => ({ ok: true, value: true }),
          openSavedFile: async (path: string) => {
            record.__opened.push(path);
            return { ok: true, value: true };
          },
          chooseOutputFolder: async () => ({ ok: true, value: record.__nextFolder }),
        },
      });
    }, station.issueUiCredential());
    page = await context.newPage();
    await page.goto(`${station.baseUrl}/ui/`);
    await page.getByTestId('mode').waitFor();
  });
  afterAll(() => testbed?.dispose());

  const chooseInDialog = async (folder: string | null): Promise<void> => {
    await page.evaluate((next) => ((window as unknown as { __nextFolder: string | null }).__nextFolder = next), folder);
    await page.getByRole('button', { name: 'Muuda…' }).click();
  };

  it('changes the output folder from Settings through the OS dialog; a folder the station refuses is said in the window’s language', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Seaded' }).click();
    const shown = page.getByTestId('output-folder');
    const file = join(dir, 'not-a-folder.txt');
    await writeFile(file, 'a file');
    await chooseInDialog(file);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('See on fail, mitte kaust.');
    await chooseInDialog(join(dir, 'missing'));
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Seda kausta pole olemas.');
    expect(await shown.textContent()).toBe(station.window.outputDir);

    const folder = join(dir, 'Allkirjastatud');
    await mkdir(folder);
    await chooseInDialog(folder);
    await expect.poll(() => shown.textContent()).toBe(folder);
    expect(station.window.outputDir).toBe(folder);
    expect(await page.getByRole('alert').count()).toBe(0);
    // Cancelled: nothing changes.
    await chooseInDialog(null);
    expect(await shown.textContent()).toBe(folder);
    expect(await seriousAxeFindings(page)).toEqual([]);
  });

  it('offers Open on a result, for the file the station saved', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Ajatempel' }).click();
    const file = join(dir, 'protokoll.txt');
    await writeFile(file, 'koosoleku protokoll\n');
    await page.locator('input[type=file]:visible').setInputFiles(file);
    await page.getByRole('button', { name: 'Lisa ajatempel', exact: true }).click();
    const result = page.getByTestId('result').filter({ visible: true });
    await expect.poll(() => result.textContent()).toContain(join(dir, 'Allkirjastatud', 'protokoll.txt.tsr'));
    expect(await result.getByRole('button', { name: 'Laadi alla protokoll.txt.tsr' }).count()).toBe(0);
    await result.getByRole('button', { name: 'Ava', exact: true }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __opened: string[] }).__opened)).toEqual([join(dir, 'Allkirjastatud', 'protokoll.txt.tsr')]);
  });
});
