// The window's container view in Chromium: the Verify screen's result and the Sign screen's preview of a container
// (before a signature is added) list its files, each with the signatures covering it, or none.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { showStationWindow } from '../support/browser/station-window-testbed.js';
import { createTestCa, createTestSigner } from '../support/pki/test-pki.js';
import { extractZip } from '../support/signing/signing-zip-extract.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { stationAsice } from '../support/verification/station-asice.js';
import { writeAsicZip } from '../support/verification/write-asic-zip.js';

describe('the window’s container view', () => {
  let dir: string;
  let station: TestStation;
  let browser: Browser;
  let page: Page;
  let container: string;
  let unsigned: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'container-view-'));
    const ca = await createTestCa();
    await writeFile(join(dir, 'root.pem'), ca.pem);
    const signer = await createTestSigner(ca, 'CN=Liis Kask,O=Signing Station Tests,C=EE', 'P-256');
    await writeFile(join(dir, 'contract.txt'), 'the contract');
    const signed = await stationAsice([{ path: join(dir, 'contract.txt'), name: 'contract.txt', mediaType: 'text/plain' }], join(dir, 'signed.asice'), signer);
    // A file added afterwards, which no signature covers.
    const names = await extractZip(signed, join(dir, 'unzipped'));
    const entries = await Promise.all(names.map(async (name) => [name, await readFile(join(dir, 'unzipped', name))] as const));
    container = await writeAsicZip(join(dir, 'contract.asice'), [...entries, ['added.txt', Buffer.from('slipped in later')]]);
    // A container no one has signed yet: its files, no signature file.
    unsigned = await writeAsicZip(join(dir, 'unsigned.asice'), entries.filter(([name]) => !name.startsWith('META-INF/signatures')).concat([['added.txt', Buffer.from('slipped in later')]]));
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] }, identity: { trustedIssuers: [join(dir, 'root.pem')] } });
    ({ browser, page } = await showStationWindow(station, { width: 1100, height: 800 }));
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  const go = (screen: string) => page.getByRole('navigation').getByRole('button', { name: screen, exact: true }).click();
  /** Each listed file's text, once the list is there. */
  const listed = async (view: Locator): Promise<string[]> => {
    const files = view.getByRole('region', { name: 'Files in the container' }).getByTestId('container-file');
    await expect.poll(() => files.count(), { timeout: 10_000 }).toBe(2);
    return files.allTextContents();
  };

  it('on the Verify screen: each file with its size, SHA-256 and the signature covering it, or that none does', async () => {
    await go('Verify');
    const screen = page.getByRole('region', { name: 'Verify a signed file' });
    await screen.getByLabel('Choose files').setInputFiles(container);
    await screen.getByRole('button', { name: 'Verify', exact: true }).click();
    const [contract, added] = await listed(page.getByRole('status', { name: 'Verification result' }));
    expect(contract).toContain('contract.txt (12 bytes)');
    expect(contract).toContain('Covered by: signature 1 (Liis Kask)');
    expect(contract).toMatch(/SHA-256 [0-9a-f]{64}/);
    expect(added).toContain('added.txt (16 bytes)');
    expect(added).toContain('No signature covers this file.');
  });

  it('on the Sign screen, before a signature is added: the same list', async () => {
    await go('Sign');
    await page.getByRole('form', { name: 'Sign documents' }).locator('input[type=file]').first().setInputFiles(container);
    const [contract, added] = await listed(page.getByTestId('existing-container'));
    expect(contract).toContain('Covered by: signature 1 (Liis Kask)');
    expect(added).toContain('No signature covers this file.');
  });

  it('on the Sign screen, a container with no signature yet: says so, and lists its files as covered by none', async () => {
    // A new pick adds to the files chosen before: start from an empty Sign screen.
    await page.reload();
    await go('Sign');
    await page.getByRole('form', { name: 'Sign documents' }).locator('input[type=file]').first().setInputFiles(unsigned);
    const view = page.getByTestId('existing-container');
    await expect.poll(() => view.textContent(), { timeout: 10_000 }).toContain('This container has no signatures yet.');
    const files = await listed(view);
    expect(files.every((file) => file.includes('No signature covers this file.')), files.join('\n')).toBe(true);
  });
});
