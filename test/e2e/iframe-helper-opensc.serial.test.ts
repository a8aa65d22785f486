import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { CardProcess } from '../cards/card-process.js';
import { waitFor } from '../support/pcsc/pcsc-test-env.js';
import { startCardBehindPcscd, type CardBehindPcscd } from '../support/pcsc/card-behind-pcscd.js';
import { OPENSC_MODULE } from '../support/pcsc/pcsc-pkcs11-tool.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { pulledDuringPrompt } from '../support/station/pulled-during-prompt.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createNssDb, pdfsig } from '../support/signing/signing-validators.js';
import { signWithPublishedClient, startShopTestbed, type Integrator, type ShopTestbed } from '../support/browser/iframe-integrator.js';
import { runModule } from '../support/browser/client-integrator.js';
import { createPkcs11TokenSource } from '../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';

const SECRET = 'shop-api-secret-0123456789';

// A USB token method driven through OpenSC's PKCS#11 module over the real pcscd (an emulated PIV token): the
// middleware path real USB tokens take, with a signature key that needs the PIN for every signature.
describe('iframe helper with a USB token through OpenSC', () => {
  let reader: CardBehindPcscd;
  let card: CardProcess;
  let station: TestStation;
  let shop: ShopTestbed;
  let integrator: Integrator;
  let browser: Browser;
  let dir: string;
  const prompt = new ScriptedPrompt();

  const prepare = async (fileName: string): Promise<string> => {
    const prepared = await fetch(`${station.baseUrl}/api/signatures/prepare-files-for-signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'shop', secret: SECRET, container_type: 'pdf', files: [{ fileName, mimeType: 'application/pdf', fileContent: minimalPdf().toString('base64') }] }),
    });
    return ((await prepared.json()) as { doc_id: string }).doc_id;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iframe-opensc-'));
    reader = await startCardBehindPcscd({ kind: 'piv', piv: { pinTries: 3, slots: { authentication: 'RSA-2048', signature: 'P-256' } } });
    ({ card } = reader);
    await card.insert();
    const source = createPkcs11TokenSource({ includeKnown: false, modules: [{ path: OPENSC_MODULE, name: 'OpenSC', kind: 'pkcs11', origin: 'config' }], pollIntervalMs: 100 });
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } }, { tokenSources: [source], userPrompt: prompt });
    await station.tokens.start(); // the sources start on first use
    await waitFor('the PIV token', () => station.tokens.tokens().length > 0, 10_000);
    shop = await startShopTestbed(station, SECRET);
    ({ integrator, browser } = shop);
  });
  afterAll(async () => {
    await shop?.close();
    await station?.dispose();
    await reader?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('certeurope-usb-token-signature: the published client signs with the token; pdfsig accepts the PDF', async () => {
    prompt.pin = '123456';
    const docId = await prepare('token.pdf');
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    const outcome = await signWithPublishedClient(page, { stationUrl: station.baseUrl, clientId: 'shop', docId, module: 'certEuropeUsbTokenSignature', countryCode: 'FR' });
    expect(outcome, outcome.detail).toMatchObject({ ok: true });
    expect(prompt.pins.at(-1)).toMatchObject({ requester: integrator.origin });

    const download = await fetch(`${station.baseUrl}/api/signatures/download-signed-file`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'shop', secret: SECRET, doc_id: docId }),
    });
    const path = join(dir, 'token-signed.pdf');
    await writeFile(path, Buffer.from(((await download.json()) as { signed_file_contents: string }).signed_file_contents, 'base64'));
    const report = await pdfsig(await createNssDb(join(dir, 'nss'), card.caPem), path);
    expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true });
    await page.close();
  });

  // A PKCS#11 token pulled out while the station's PIN prompt waits: the module's slot event tells the station,
  // which fails the request at once (the prompt withdrawn) instead of leaving the page waiting on a prompt for a
  // key that is gone.
  it('a token pulled out while the PIN prompt waits fails the published client’s flow within seconds', async () => {
    prompt.pin = '123456';
    const docId = await prepare('pulled.pdf');
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    try {
      const sign = () => runModule(page, { client: 'eidEasyBrowserClient', kind: 'signature', module: 'certEuropeUsbTokenSignature', settings: { clientId: 'shop', docId, countryCode: 'FR', base: station.baseUrl }, options: { iframeHolder: true } });
      const { outcome, afterPullMs } = await pulledDuringPrompt(prompt, 'pin', sign, () => card.remove());
      expect(afterPullMs).toBeLessThan(10_000);
      expect(outcome.calls).toEqual(['fail', 'finished']);
      expect(outcome.error).toMatchObject({ message: 'The card or token was removed during the operation. Insert it and try again.' });
    } finally {
      await card.insert();
      await waitFor('the PIV token again', () => station.tokens.tokens().length > 0, 10_000);
      await page.close();
    }
  });
});
