import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { showStationWindow } from '../support/browser/station-window-testbed.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createTestCa, createTestSigner } from '../support/pki/test-pki.js';
import { appendPdfUpdate, editedDict, ref } from '../support/verification/append-pdf-update.js';
import { PadesEngine } from '../../src/station/signing/pades-engine.js';
import { softKeySigner } from '../../src/station/signing/soft-key-signer.js';

// The minimal test PDF's page tree root and its one page.
const PAGES = 2;
const PAGE = 3;

describe('the Verify screen in Chromium: changes after a PDF signature', () => {
  let station: TestStation;
  let browser: Browser;
  let page: Page;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'station-ui-changes-'));
    const ca = await createTestCa();
    await writeFile(join(dir, 'root.pem'), ca.pem);
    const signer = await createTestSigner(ca, 'CN=Verified Signer,O=Signing Station Tests,C=EE', 'P-256');
    const signed = join(dir, 'page-added.pdf');
    const prepared = await PadesEngine.prepare(await writeMinimalPdf(join(dir, 'in.pdf'), 'One page signed'), { certificate: signer.der });
    await PadesEngine.finish(prepared.state, await softKeySigner(signer.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm), { outputPath: signed });
    await appendPdfUpdate(signed, async (reader, next) => ({
      [PAGES]: await editedDict(reader, PAGES, { Kids: [ref(PAGE), ref(next)], Count: 2 }),
      [next]: `<< /Type /Page /Parent ${PAGES} 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>`,
    }));
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] }, identity: { trustedIssuers: [join(dir, 'root.pem')] } });
    ({ browser, page } = await showStationWindow(station, { width: 1100, height: 800 }));
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows the page added after signing next to the failed verdict, in words', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Verify', exact: true }).click();
    const screen = page.getByRole('region', { name: 'Verify a signed file' });
    const result = page.getByRole('status', { name: 'Verification result' });
    await screen.getByLabel('Choose files').setInputFiles(join(dir, 'page-added.pdf'));
    await screen.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect.poll(() => result.textContent()).toContain('page-added.pdf: NOT valid');
    expect(await result.getByTestId('changes-after-signing').textContent()).toContain('pages added: 2');
    expect(await result.textContent()).toContain('Changes after signing');
  });
});
