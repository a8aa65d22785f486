import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { createTestCa, createTestSigner, type TestCa } from '../support/pki/test-pki.js';
import { writePkcs12 } from '../support/pkcs11/pkcs11-nss-database.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createNssDb, pdfsig } from '../support/signing/signing-validators.js';
import { signWithPublishedClient, startShopTestbed, type Integrator, type ShopTestbed } from '../support/browser/iframe-integrator.js';
import { runModule } from '../support/browser/client-integrator.js';
import { downloadSigned, prepareDocument } from '../support/signing/signing-session-client.js';
import { openStationData } from '../../src/station/open-station-data.js';
import { OsKeyStore } from '../../src/station/keychain/os-key-store.js';
import { SoftTokenStore } from '../../src/station/tokens/soft/soft-token-store.js';

const SECRET = 'shop-api-secret-0123456789';
/** AutoFirma is Spanish (its client asks the iframe to sign `fileContent`); the store methods serve any country. */
const COUNTRY: Record<string, string> = { esAutofirmaSignature: 'ES' };

// The three certificate-store variants of the published client, its local unverified certificate and AutoFirma, signing with a key imported into the station's
// own certificate store (PKCS#12), through the iframe helper.
describe('iframe helper with the local certificate store', () => {
  let dir: string;
  let ca: TestCa;
  let station: TestStation;
  let shop: ShopTestbed;
  let integrator: Integrator;
  let browser: Browser;
  const prompt = new ScriptedPrompt();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iframe-store-'));
    ca = await createTestCa();
    const signer = await createTestSigner(ca, 'CN=Store Signer,2.5.4.5=PNOEE-38001085718,C=EE');
    const p12 = await readFile(await writePkcs12(dir, 'store', signer, ca, 'pw'));
    const dataDir = join(dir, 'data');
    const data = await openStationData({ dataDir }, new OsKeyStore());
    await new SoftTokenStore(data.database, data.vault).importPkcs12(p12, new TextEncoder().encode('pw'), 'My store key');
    await data.close();
    station = await startTestStation({ dataDir, pcsc: { enabled: false, atrMap: [] } }, { userPrompt: prompt });
    shop = await startShopTestbed(station, SECRET, { scripts: [`${station.baseUrl}/client/service-browser-client.js`] });
    ({ integrator, browser } = shop);
  });
  afterAll(async () => {
    await shop?.close();
    await station?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  for (const module of ['certStoreQesSignature', 'certStoreAdvancedSignature', 'certStoreAdvancedUnverifiedSignature', 'localAdvUnverifiedSignature', 'esAutofirmaSignature']) {
    it(`${module}: signs from the store; pdfsig accepts the PDF`, async () => {
      const prepared = await fetch(`${station.baseUrl}/api/signatures/prepare-files-for-signing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [{ fileName: `${module}.pdf`, mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }] }),
      });
      const docId = ((await prepared.json()) as { doc_id: string }).doc_id;
      const page = await browser.newPage();
      await page.goto(`${integrator.origin}/`);
      const outcome = await signWithPublishedClient(page, { stationUrl: station.baseUrl, clientId: 'shop', docId, module, countryCode: COUNTRY[module] ?? 'EE' });
      expect(outcome, outcome.detail).toMatchObject({ ok: true });
      const download = await fetch(`${station.baseUrl}/api/signatures/download-signed-file`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: 'shop', secret: SECRET, doc_id: docId }),
      });
      const path = join(dir, `${module}.signed.pdf`);
      await writeFile(path, Buffer.from(((await download.json()) as { signed_file_contents: string }).signed_file_contents, 'base64'));
      const report = await pdfsig(await createNssDb(join(dir, `nss-${module}`), ca.pem), path);
      expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true });
      await page.close();
    });
  }

  for (const module of ['certStoreQesSignature', 'certStoreAdvancedSignature', 'certStoreAdvancedUnverifiedSignature', 'localAdvUnverifiedSignature', 'esAutofirmaSignature']) {
    it(`${module}: the station's own client signs from the store too; pdfsig accepts the PDF`, async () => {
      const integration = { baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET };
      const docId = await prepareDocument(integration);
      const page = await browser.newPage();
      await page.goto(`${integrator.origin}/`);
      const outcome = await runModule(page, { client: 'serviceBrowserClient', kind: 'signature', module, settings: { clientId: 'shop', docId, countryCode: COUNTRY[module] ?? 'EE', base: station.baseUrl }, options: { iframeHolder: true } });
      expect(outcome.calls, outcome.error?.message).toEqual(['success', 'finished']);
      const path = join(dir, `${module}.ours.pdf`);
      await writeFile(path, (await downloadSigned(integration, docId)).file);
      const report = await pdfsig(await createNssDb(join(dir, `nss-ours-${module}`), ca.pem), path);
      expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true });
      await page.close();
    });
  }
});
