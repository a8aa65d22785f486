import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PadesEngine } from '../../src/station/signing/pades-engine.js';
import { softKeySigner } from '../../src/station/signing/soft-key-signer.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createTestCa, createTestSigner } from '../support/pki/test-pki.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser/browser.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import type { TestSigner } from '../support/signing/signing-pades-fixture.js';

describe('station UI in Chromium', () => {
  let station: TestStation;
  let browser: Browser;
  let page: Page;

  let dir: string;
  let signer: TestSigner;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'station-ui-'));
    const ca = await createTestCa();
    await writeFile(join(dir, 'root.pem'), ca.pem);
    signer = await createTestSigner(ca, 'CN=Verified Signer,O=Signing Station Tests,C=EE', 'P-256');
    station = await startTestStation({ identity: { trustedIssuers: [join(dir, 'root.pem')] } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    await page.goto(station.uiUrl());
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('opens through the one-time link, drops the token from the address, and shows the mode', async () => {
    await expect.poll(() => new URL(page.url()).hash).toBe('');
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(() => page.getByTestId('mode').textContent()).toContain('Sandbox mode');
    await expect.poll(() => page.getByTestId('no-tokens').isVisible()).toBe(true);
    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/station-ui.png', fullPage: true });
    expect((await stat('test-results/station-ui.png')).size).toBeGreaterThan(10_000);
  });

  it('keeps its credential in this tab only: a reload works, the browser holds no cookie, a new tab needs a link', async () => {
    await page.reload();
    await expect.poll(() => page.getByTestId('mode').textContent()).toContain('Sandbox mode');
    expect(await page.context().cookies()).toEqual([]);
    const other = await browser.newPage();
    await other.goto(`${station.baseUrl}/ui/`);
    await expect.poll(() => other.getByRole('alert').first().textContent()).toContain('link the station printed');
    await other.close();
  });

  it('gives a page on another local port nothing that drives the station', async () => {
    const otherPort = createServer((_request, response) => response.end('<!doctype html><title>other local server</title>'));
    await new Promise<void>((resolve) => otherPort.listen(0, '127.0.0.1', resolve));
    const neighbour = await browser.newPage();
    try {
      await neighbour.goto(`http://127.0.0.1:${(otherPort.address() as AddressInfo).port}/`);
      const outcome = await neighbour.evaluate(async (base) => {
        const read = await fetch(`${base}/admin/api/overview`, { credentials: 'include' }).then((response) => response.status, () => 'blocked');
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

  it('shows the signature audit log', async () => {
    await station.data.audit.append({ clientId: 'shop', method: 'id-signature', signer: 'CN=Audited Signer', documentName: 'audited.pdf', documentDigest: 'cd'.repeat(32), outcome: 'signed', detail: null, source: 'web-page', requester: 'https://shop.example' });
    const log = page.getByRole('table', { name: 'Signature log' });
    await expect.poll(() => log.textContent()).toContain('CN=Audited Signer');
    expect(await log.textContent()).toContain('audited.pdf');
  });

  it('lists the PKCS#11 modules it loads and refuses a module that does not load', async () => {
    const loaded = page.getByRole('list', { name: 'Loaded modules' });
    await expect.poll(() => loaded.textContent()).toContain('opensc-pkcs11.so');
    const form = page.getByRole('form', { name: 'Add module' });
    await form.getByLabel('Module or NSS database path').fill('/nonexistent/libnothing-pkcs11.so');
    await form.getByRole('button', { name: 'Add module' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'PKCS#11 modules' }).getByRole('alert').textContent()).toContain('/nonexistent/libnothing-pkcs11.so');
    expect(await page.getByRole('list', { name: 'Added modules' }).count()).toBe(0);
  });

  it('adds and removes a client from the form', async () => {
    await page.getByLabel('Client id').fill('shop');
    await page.getByLabel('Allowed origins').fill('https://shop.example');
    await page.getByRole('button', { name: 'Add client' }).click();
    await expect.poll(() => page.getByRole('cell', { name: 'shop', exact: true }).isVisible()).toBe(true);
    expect((await station.data.clients.get('shop')).allowedOrigins).toEqual(['https://shop.example']);

    await page.getByLabel('Client id').fill('bad id');
    await page.getByRole('button', { name: 'Add client' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Clients' }).getByRole('alert').textContent()).toContain('clientId');

    await page.getByRole('row', { name: /shop/ }).getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => station.data.clients.find('shop')).toBeUndefined();
  });

  it('shows a consent prompt with the real requester and document, and passes on the answer', async () => {
    const consent = station.prompts.confirm({
      purpose: 'sign',
      requester: 'https://shop.example',
      clientId: 'shop',
      documentName: 'contract.pdf',
      documentDigest: 'ab'.repeat(32),
      signerSubject: 'CN=Jaak-Kristjan Jõeorg',
      signerIssuer: 'CN=Test CA',
      signerSerialNumber: '01',
      reason: 'I agree',
    });
    const prompt = page.getByRole('article', { name: 'Consent' });
    await expect.poll(() => prompt.textContent()).toContain('https://shop.example asks you to sign');
    expect(await prompt.textContent()).toContain('contract.pdf');
    await prompt.getByRole('button', { name: 'Sign' }).click();
    expect(await consent).toBe(true);

    const declined = station.prompts.confirm({ purpose: 'sign', requester: 'cli', documentDigest: '00', signerSubject: 's', signerIssuer: 'i', signerSerialNumber: '1' });
    await page.getByRole('button', { name: 'Decline' }).click();
    expect(await declined).toBe(false);
  });

  it('asks for a PIN in the station’s own page, with retries left', async () => {
    const pin = station.prompts.askPin({ tokenLabel: 'TestToken', pinLabel: 'signing PIN', retriesLeft: 2, finalTry: false, previousAttemptFailed: true, requester: 'cli' });
    const form = page.getByRole('form', { name: 'PIN' });
    await expect.poll(() => form.textContent()).toContain('Wrong PIN.');
    expect(await form.textContent()).toContain('2 tries left');
    await form.locator('input[name=pin]').fill('1234');
    await form.getByRole('button', { name: 'OK' }).click();
    expect(Buffer.from((await pin)!).toString()).toBe('1234');
  });

  it('shows an answer the station refuses, and keeps the prompt answerable', async () => {
    const pin = station.prompts.askPin({ tokenLabel: 'TestToken', pinLabel: 'signing PIN', retriesLeft: 3, finalTry: false, previousAttemptFailed: false, requester: 'cli' });
    const form = page.getByRole('form', { name: 'PIN' });
    await expect.poll(() => form.isVisible()).toBe(true);
    // Longer than any PIN the station takes (64 characters): the station answers 400 and the prompt stays open.
    await form.locator('input[name=pin]').fill('1'.repeat(65));
    await form.getByRole('button', { name: 'OK' }).click();
    const alert = page.getByRole('region', { name: 'Waiting for you' }).getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('The station did not take that answer');
    expect(station.prompts.pending()).toHaveLength(1);
    await form.locator('input[name=pin]').fill('4321');
    await form.getByRole('button', { name: 'OK' }).click();
    expect(Buffer.from((await pin)!).toString()).toBe('4321');
    await expect.poll(() => alert.count()).toBe(0);
  });

  it('offers start at login only through the desktop shell’s preload API', async () => {
    // The headless UI in a plain browser has no shell: no login item to offer.
    expect(await page.getByLabel('Start Signing Station when I log in').count()).toBe(0);
    // Electron is not installed here; this stands in for the preload's window.stationShell (src/preload/index.ts),
    // answering as src/main does, and records what the page asked.
    const shellPage = await browser.newPage();
    try {
      await shellPage.addInitScript((credential) => {
        let openAtLogin = false;
        const calls: unknown[] = [];
        Object.assign(window, {
          shellCalls: calls,
          stationShell: {
            platform: 'linux',
            getStartAtLogin: async () => (calls.push(['get']), { ok: true, value: openAtLogin }),
            setStartAtLogin: async (enabled: boolean) => (calls.push(['set', enabled]), (openAtLogin = enabled), { ok: true, value: enabled }),
            uiCredential: async () => ({ ok: true, value: credential }),
          },
        });
      }, station.issueUiCredential());
      await shellPage.goto(`${station.baseUrl}/ui/`);
      const checkbox = shellPage.getByLabel('Start Signing Station when I log in');
      await expect.poll(() => checkbox.isEnabled()).toBe(true);
      expect(await checkbox.isChecked()).toBe(false);
      await checkbox.check();
      await expect.poll(() => shellPage.evaluate(() => (window as unknown as { shellCalls: unknown[] }).shellCalls)).toEqual([['get'], ['set', true]]);
      expect(await checkbox.isChecked()).toBe(true);
    } finally {
      await shellPage.close();
    }
  });

  it('verifies a signed file on its verify screen with the station’s own verification, one line per signature', async () => {
    const signed = join(dir, 'signed.pdf');
    const prepared = await PadesEngine.prepare(await writeMinimalPdf(join(dir, 'in.pdf'), 'Pay 100 EUR'), { certificate: signer.der, reason: 'Agreed' });
    const value = await softKeySigner(signer.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm);
    await PadesEngine.finish(prepared.state, value, { outputPath: signed });
    const result = page.getByRole('status', { name: 'Verification result' });
    await page.getByLabel('File to verify').setInputFiles(signed);
    await expect.poll(() => result.textContent()).toContain('signed.pdf: all 1 valid');
    expect(await result.textContent()).toContain('VALID PAdES B-B signature by CN=Verified Signer');
    expect(await result.textContent()).toContain('reason "Agreed"');

    const tampered = join(dir, 'tampered.pdf');
    const bytes = await readFile(signed);
    bytes.write('Pay 900 EUR', bytes.indexOf('Pay 100 EUR'), 'latin1');
    await writeFile(tampered, bytes);
    await page.getByLabel('File to verify').setInputFiles(tampered);
    await expect.poll(() => result.textContent()).toContain('tampered.pdf: NOT valid');
    expect(await result.textContent()).toContain('changed after signing');
  });
});

