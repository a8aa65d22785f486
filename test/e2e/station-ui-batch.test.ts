import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { PendingPrompt } from '../../src/core/schemas/admin-api.js';
import { seriousAxeFindings } from '../support/browser/axe-audit.js';
import type { TestStation } from '../support/station/test-station.js';
import { openStationWindow, type StationWindowTestbed } from '../support/browser/station-window-testbed.js';
import type { SoftHsm } from '../support/pkcs11/pkcs11-softhsm.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createNssDb, pdfsig } from '../support/signing/signing-validators.js';

const PIN = '1234';

describe('signing several PDFs separately in one go from the station window, in Chromium, with SoftHSM', () => {
  let testbed: StationWindowTestbed;
  let softhsm: SoftHsm;
  let station: TestStation;
  let page: Page;
  let dir: string;
  let nss: string;
  /** Every prompt the station opened, by id, as the broker listed it: what the user was asked, and how often. */
  const asked = new Map<string, PendingPrompt>();

  beforeAll(async () => {
    testbed = await openStationWindow({
      dirPrefix: 'ui-batch-',
      token: {
        label: 'Batch Token',
        pin: PIN,
        keys: [
          { id: '0a', algorithm: 'RSA-2048', usage: 'signing', subject: 'CN=Session Signer' },
          { id: '0b', algorithm: 'P-256', usage: 'signing', alwaysAuthenticate: true, subject: 'CN=Card Signer' },
        ],
      },
      // The login is kept for the whole file: the always-authenticate batch then needs no token login, only its per-signature PIN.
      loginIdleMs: 600_000,
    });
    ({ softhsm, station, page, dir } = testbed);
    nss = await createNssDb(join(dir, 'nss'), softhsm.ca.pem);
    station.prompts.onChange(() => {
      for (const prompt of station.prompts.pending()) asked.set(prompt.id, prompt);
    });
  });
  afterAll(() => testbed?.dispose());

  /** Answers each PIN prompt as it comes (only one not yet answered has its OK button enabled) until `done` shows. */
  async function answerPinsUntil(done: Locator): Promise<void> {
    const open = page.locator('form[aria-label="PIN"]:has(button[type=submit]:not([disabled]))');
    for (;;) {
      await open.or(done).first().waitFor({ timeout: 20_000 });
      if (await done.isVisible()) return;
      await open.locator('input[name=pin]').fill(PIN);
      await open.locator('input[name=pin]').press('Enter');
    }
  }

  /** Five PDFs picked at once, "each separately" chosen, signed with the certificate whose subject is `signer`. */
  async function signFiveSeparately(prefix: string, signer: string): Promise<string[]> {
    asked.clear();
    const names = [1, 2, 3, 4, 5].map((n) => `${prefix}-${n}.pdf`);
    const paths = names.map((name) => join(dir, name));
    for (const [index, path] of paths.entries()) await writeFile(path, minimalPdf(`${prefix} document ${index + 1}`));
    await page.locator('input[type=file]').first().setInputFiles(paths);
    await expect.poll(() => page.getByRole('list', { name: 'Files' }).getByRole('listitem').count()).toBe(5);
    await page.getByLabel('Each PDF separately, as its own signed PDF (one consent for all)').check();
    expect(await page.getByRole('form', { name: 'Sign documents' }).textContent()).toContain('PDF signature (PAdES)');
    const certificate = page.getByLabel('Signing certificate');
    const value = await certificate.locator('option', { hasText: signer }).getAttribute('value');
    await certificate.selectOption(value!);
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();

    // One consent, naming all five documents.
    const consent = page.getByRole('article', { name: /asks you to sign/ });
    const listed = consent.getByRole('list', { name: 'Files signed (5)' });
    await expect.poll(() => listed.getByRole('listitem').count(), { timeout: 15_000 }).toBe(5);
    for (const name of names) expect(await listed.textContent()).toContain(name);
    expect(await seriousAxeFindings(page)).toEqual([]);
    await consent.getByRole('button', { name: 'Sign' }).click();

    const summary = page.getByTestId('batch-summary');
    await answerPinsUntil(summary);
    expect(await summary.textContent()).toBe('5 of 5 documents signed.');
    // The summary takes the focus, so it is read first.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('batch-outcome');
    const progress = page.getByRole('list', { name: 'Documents' });
    const saved = names.map((name) => join(station.window.outputDir, name.replace(/\.pdf$/, '.signed.pdf')));
    for (const [index, path] of saved.entries()) {
      const signedName = names[index]!.replace(/\.pdf$/, '.signed.pdf');
      // Each signed one can be verified from here, as any result.
      expect(await progress.getByRole('listitem').nth(index).textContent()).toBe(`${names[index]}: Signed, saved as ${signedName} Verify ${signedName}`);
      const report = await pdfsig(nss, path);
      expect(report.signatures.map((signature) => signature.valid), report.output).toEqual([true]);
      expect(Buffer.from(await readFile(path)).toString('latin1')).toContain(`${prefix} document ${index + 1}`);
    }
    expect(await seriousAxeFindings(page)).toEqual([]);
    return names;
  }

  const consents = (): PendingPrompt[] => [...asked.values()].filter((prompt) => prompt.kind === 'consent');
  const pins = (): PendingPrompt[] => [...asked.values()].filter((prompt) => prompt.kind === 'pin');

  it('a batch of five with a token that keeps its login: one consent listing all five, one PIN, five signed PDFs, each in Activity', async () => {
    const names = await signFiveSeparately('session', 'Session Signer');
    expect(consents()).toHaveLength(1);
    expect(pins().map((prompt) => prompt.request)).toEqual([expect.objectContaining({ pinLabel: 'PIN', tokenLabel: 'Batch Token' })]);

    await page.getByRole('navigation').getByRole('button', { name: 'Activity' }).click();
    const log = page.getByRole('table', { name: 'Signature log' });
    for (const name of names) await expect.poll(() => log.getByRole('row', { name: new RegExp(name.replace('.', '\\.')) }).first().textContent()).toContain('signed');
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
  });

  it('a batch of five with an always-authenticate key: one consent, the signing PIN asked for each of the five signatures', async () => {
    await signFiveSeparately('card', 'Card Signer');
    expect(consents()).toHaveLength(1);
    expect(pins().map((prompt) => (prompt.kind === 'pin' ? prompt.request.pinLabel : ''))).toEqual(Array(5).fill('signing PIN'));
  });

  it('a cancelled PIN stops the documents still waiting, and the summary says which were signed', async () => {
    const paths = ['stop-1.pdf', 'stop-2.pdf', 'stop-3.pdf'].map((name) => join(dir, name));
    for (const path of paths) await writeFile(path, minimalPdf(path));
    await page.locator('input[type=file]').first().setInputFiles(paths);
    await page.getByLabel('Each PDF separately, as its own signed PDF (one consent for all)').check();
    const certificate = page.getByLabel('Signing certificate');
    await certificate.selectOption((await certificate.locator('option', { hasText: 'Card Signer' }).getAttribute('value'))!);
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    const open = page.locator('form[aria-label="PIN"]:has(button[type=submit]:not([disabled]))');
    await open.locator('input[name=pin]').fill(PIN);
    await open.locator('input[name=pin]').press('Enter');
    await expect.poll(() => page.getByRole('list', { name: 'Documents' }).getByRole('listitem').first().textContent(), { timeout: 15_000 }).toContain('Signed');
    await open.getByRole('button', { name: 'Cancel' }).click();
    const summary = page.getByTestId('batch-summary');
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe('1 of 3 documents signed.');
    const rows = await page.getByRole('list', { name: 'Documents' }).getByRole('listitem').allTextContents();
    expect(rows.slice(1)).toEqual(['stop-2.pdf: Not signed: the signing was cancelled.', 'stop-3.pdf: Not signed: the signing was cancelled.']);
    // Not all were signed: the files stay chosen, to try again.
    expect(await page.getByRole('list', { name: 'Files' }).getByRole('listitem').count()).toBe(3);
  });

  /** One PDF signed with the session signer; answers each PIN prompt, resolves once the result shows. */
  async function signOne(name: string): Promise<void> {
    asked.clear();
    const path = join(dir, name);
    await writeFile(path, minimalPdf(name));
    await page.locator('input[type=file]').first().setInputFiles(path);
    const certificate = page.getByLabel('Signing certificate');
    await certificate.selectOption((await certificate.locator('option', { hasText: 'Session Signer' }).getAttribute('value'))!);
    await page.getByRole('button', { name: 'Sign', exact: true }).last().click();
    await page.getByRole('article', { name: /asks you to sign/ }).getByRole('button', { name: 'Sign' }).click();
    const result = page.getByTestId('result');
    await answerPinsUntil(result);
    expect(await result.textContent()).toContain('Signed.');
  }

  it('says while a token stays unlocked, with the time left; "Lock now" logs it out; 0 seconds asks the PIN every time', async () => {
    for (const name of ['stop-1.pdf', 'stop-2.pdf', 'stop-3.pdf']) await page.getByRole('button', { name: `Remove ${name}` }).click();
    await signOne('unlock-1.pdf');
    const unlocked = page.getByTestId('unlocked-tokens');
    await expect.poll(() => unlocked.textContent()).toMatch(/^Batch Token is unlocked: the next signature asks no PIN\. Locks in (9|10):\d\d\. Lock now$/);
    await signOne('unlock-2.pdf');
    expect(pins()).toEqual([]);

    await unlocked.getByRole('button', { name: 'Lock now' }).click();
    await expect.poll(() => unlocked.count()).toBe(0);
    await signOne('unlock-3.pdf');
    expect(pins()).toHaveLength(1);

    await page.getByRole('navigation').getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Keep a card or token unlocked after signing').selectOption({ label: 'No, ask the PIN every time' });
    await expect.poll(() => station.data.settings.get('token_unlock_seconds')).toBe('0');
    expect(await seriousAxeFindings(page)).toEqual([]);
    await page.getByRole('navigation').getByRole('button', { name: 'Sign' }).click();
    // The login of the last signature ends at its own time; the next one keeps none.
    await unlocked.getByRole('button', { name: 'Lock now' }).click();
    await signOne('unlock-4.pdf');
    expect(pins()).toHaveLength(1);
    expect(await unlocked.count()).toBe(0);
    await signOne('unlock-5.pdf');
    expect(pins()).toHaveLength(1);
  });

  it('downloads a result in the browser under its name, to the window only, and nothing but a file saved in the output folder', async () => {
    await signOne('download.pdf');
    const saved = join(station.window.outputDir, 'download.signed.pdf');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download download.signed.pdf' }).click()]);
    expect(download.suggestedFilename()).toBe('download.signed.pdf');
    expect(await readFile((await download.path())!)).toEqual(await readFile(saved));

    const url = (name: string): string => `${station.baseUrl}/admin/api/desk/saved?name=${encodeURIComponent(name)}`;
    const headers = { origin: station.baseUrl, authorization: `Bearer ${station.issueUiCredential()}` };
    const answer = await fetch(url('download.signed.pdf'), { headers });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="download.signed.pdf"; filename*=UTF-8''download.signed.pdf`);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(await readFile(saved));
    expect((await fetch(url('download.signed.pdf'), { headers: { origin: station.baseUrl } })).status).toBe(401);
    expect((await fetch(url('../download.pdf'), { headers })).status).toBe(400);
    // A link planted in the output folder (the run's, shared with other test files) to a file elsewhere is not followed.
    const planted = `${basename(dir)}-planted.pdf`;
    await symlink(join(dir, 'download.pdf'), join(station.window.outputDir, planted));
    expect((await fetch(url(planted), { headers })).status).toBe(404);
  });
});
