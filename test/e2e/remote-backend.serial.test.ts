import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createRequire } from 'node:module';
import { launchChromium } from '../support/browser/browser.js';
import { BOTH_CLIENTS, type ClientGlobal } from '../support/browser/client-integrator.js';
import { contextWithLocalNetworkAccess } from '../support/browser/local-network-permission.js';
import { BACKEND_ADDRESS, startRemoteBackend, type RemoteBackend } from '../support/browser/remote-backend.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm } from '../support/pkcs11/pkcs11-softhsm.js';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { createNssDb, pdfsig, run, xmlsecVerify } from '../support/signing/signing-validators.js';
import { extractZip } from '../support/signing/signing-zip-extract.js';

const PUBLISHED_CLIENT = createRequire(import.meta.url).resolve('@eid-easy/eideasy-browser-client');
const LOGIN_SUBJECT = 'CN=TAMM\\,MARI\\,48912319876,2.5.4.4=TAMM,2.5.4.42=MARI,2.5.4.5=PNOEE-48912319876,C=EE';

// A web app whose server runs where the user's machine is out of reach: the example integrator
// (examples/integrator/server.js) in its own network namespace, its page in Chromium, a SoftHSM token. Signing goes
// through a grant the server signed; the signed files it brings back are checked by pdfsig and xmlsec1, the login by
// the server itself from the Web eID token.
describe('a remote backend signs and logs in through the user’s station', () => {
  let softhsm: SoftHsm;
  let station: TestStation;
  let backend: RemoteBackend;
  let browser: Browser;
  let dir: string;
  const prompt = new ScriptedPrompt();
  /** Signed files the backend accepted and stored, by kind: the material a page could hand back for another document. */
  const accepted: { pdf?: string; asice?: string } = {};

  /** Opens the shop, runs one of its buttons, and answers the page's result once it is there. */
  const press = async (button: 'sign' | 'login', files: Array<{ name: string; mimeType: string; buffer: Buffer }> = [], client: ClientGlobal = 'serviceBrowserClient'): Promise<{ state: string; text: string; page: Page }> => {
    // The user allowed the shop's site to reach devices on the local network when Chrome asked.
    const page = await (await contextWithLocalNetworkAccess(browser, backend.origin)).newPage();
    await page.goto(`${backend.origin}/?client=${client}`);
    // The published client, as a page that uses it loads it (from its own copy).
    if (client === 'eidEasyBrowserClient') await page.addScriptTag({ path: PUBLISHED_CLIENT });
    if (files.length) await page.setInputFiles('#files', files);
    await page.click(`#${button}`);
    await page.waitForSelector('#result[data-state="done"], #result[data-state="failed"]', { timeout: 60_000 });
    const result = page.locator('#result');
    return { state: (await result.getAttribute('data-state'))!, text: await result.innerText(), page };
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'remote-backend-'));
    softhsm = await createSoftHsm();
    await softhsm.createToken('Shop Token', '1234', [
      { id: '01', algorithm: 'RSA-2048', usage: 'signing' },
      { id: '02', algorithm: 'P-256', usage: 'authentication', subject: LOGIN_SUBJECT },
    ]);
    station = await startTestStation({}, { tokenSources: [softHsmTokenSource()], userPrompt: prompt });
    await writeFile(join(dir, 'token-ca.pem'), softhsm.ca.pem);
    // A hosted web app is served over https: Chrome lets only a secure page ask to reach the user's machine.
    const tls = { cert: join(dir, 'shop-cert.pem'), key: join(dir, 'shop-key.pem') };
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', tls.key, '-out', tls.cert, '-days', '1', '-subj', `/CN=${BACKEND_ADDRESS}`, '-addext', `subjectAltName=IP:${BACKEND_ADDRESS}`]);
    backend = await startRemoteBackend({ station: station.baseUrl, dataDir: join(dir, 'backend'), trust: [join(dir, 'token-ca.pem')], tls });
    const jwks = JSON.parse(await readFile(join(backend.dataDir, 'jwks.json'), 'utf8')) as { keys: Array<{ kty: string }> };
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [backend.origin], jwks });
    browser = await launchChromium(['--ignore-certificate-errors']);
  });
  afterAll(async () => {
    await browser?.close();
    await backend?.close();
    await station?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('the backend cannot reach the station: not on its 127.0.0.1, not across the link to the browser’s side', async () => {
    const port = Number(new URL(station.baseUrl).port);
    expect(await backend.connects('127.0.0.1', port)).toBe(false);
    expect(await backend.connects('10.213.0.1', port)).toBe(false);
  });

  for (const client of BOTH_CLIENTS) {
    it(`${client}: signs a PDF: the consent names the page and the file, pdfsig accepts what the backend stored`, async () => {
      const { state, text, page } = await press('sign', [{ name: 'contract.pdf', mimeType: 'application/pdf', buffer: minimalPdf() }], client);
      expect(state, text).toBe('done');
      const stored = (JSON.parse(text) as { stored: string }).stored;
      expect(prompt.confirms.at(-1)).toMatchObject({ purpose: 'sign', requester: backend.origin, documents: [{ name: 'contract.pdf' }] });
      const report = await pdfsig(await createNssDb(join(dir, `nss-${client}`), softhsm.ca.pem), stored);
      expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true, totalDocumentSigned: true });
      accepted.pdf = stored;
      await page.context().close();
    });
  }

  it('signs two files as an ASiC-E: the consent lists both, xmlsec1 accepts the container the backend stored', async () => {
    const files = [
      { name: 'terms.txt', mimeType: 'text/plain', buffer: Buffer.from('The terms, agreed.\n') },
      { name: 'order.pdf', mimeType: 'application/pdf', buffer: minimalPdf('Order 42') },
    ];
    const { state, text, page } = await press('sign', files);
    expect(state, text).toBe('done');
    expect(prompt.confirms.at(-1)).toMatchObject({ purpose: 'sign', requester: backend.origin, documents: [{ name: 'terms.txt' }, { name: 'order.pdf' }] });
    const root = join(dir, 'asice');
    accepted.asice = (JSON.parse(text) as { stored: string }).stored;
    await extractZip(accepted.asice, root);
    const xmlsec = await xmlsecVerify(root, 'META-INF/signatures0.xml', join(dir, 'token-ca.pem'));
    expect(xmlsec.code, xmlsec.stderr).toBe(0);
    await page.context().close();
  });

  // The page (or whatever stands between the station and the backend) hands back a validly signed file that does
  // not carry the granted bytes: the backend refuses it and stores nothing.
  it('the backend refuses a signed file that does not carry the bytes it granted, PDF and ASiC-E, and stores nothing', async () => {
    expect(accepted.pdf && accepted.asice, 'the signing tests above stored a PDF and a container').toBeTruthy();
    const page = await (await contextWithLocalNetworkAccess(browser, backend.origin)).newPage();
    await page.goto(`${backend.origin}/`);
    const hand = (containerType: 'pdf' | 'asice', files: Array<{ fileName: string; mimeType: string; content: string }>, signed: Buffer, filename: string) =>
      page.evaluate(
        async ({ containerType, files, signed, filename }) => {
          const post = async (path: string, body: object) => {
            const response = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
            return { status: response.status, body: (await response.json()) as { id?: string; message?: string } };
          };
          const granted = await post('/documents', { container_type: containerType, files: files.map(({ fileName, mimeType, content }) => ({ fileName, mimeType, fileContent: btoa(content) })) });
          const refused = await post('/documents/signed', { id: granted.body.id, signed_file_contents: signed, filename, signer_firstname: 'MARI', signer_lastname: 'TAMM' });
          return { id: granted.body.id!, ...refused };
        },
        { containerType, files, signed: signed.toString('base64'), filename },
      );
    // Another PDF was granted; the page hands back the signed contract instead.
    const pdf = await hand('pdf', [{ fileName: 'contract.pdf', mimeType: 'application/pdf', content: minimalPdf('Another contract').toString('latin1') }], await readFile(accepted.pdf!), 'contract.signed.pdf');
    expect(pdf).toMatchObject({ status: 400, body: { status: 'error', message: 'the signed PDF does not extend the granted one' } });
    // The same names were granted with other terms; the page hands back the container signed over the old ones.
    const asice = await hand(
      'asice',
      [
        { fileName: 'terms.txt', mimeType: 'text/plain', content: 'Other terms.\n' },
        { fileName: 'order.pdf', mimeType: 'application/pdf', content: minimalPdf('Order 42').toString('latin1') },
      ],
      await readFile(accepted.asice!),
      'terms.asice',
    );
    expect(asice).toMatchObject({ status: 400, body: { status: 'error', message: 'terms.txt in the container is not the granted file' } });
    for (const { id } of [pdf, asice]) await expect(readdir(join(backend.dataDir, 'signed', id))).rejects.toMatchObject({ code: 'ENOENT' });
    await page.context().close();
  });

  it('logs in: the backend checks the Web eID token against its own nonce, its origin and the token CA', async () => {
    const { state, text, page } = await press('login');
    expect(state, text).toBe('done');
    expect(JSON.parse(text)).toMatchObject({ status: 'OK', subject: expect.stringContaining('PNOEE-48912319876') });
    expect(prompt.pins.at(-1)).toMatchObject({ requester: backend.origin });
    await page.context().close();
  });
});
