import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser/browser.js';
import { runModule } from '../support/browser/client-integrator.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm } from '../support/pkcs11/pkcs11-softhsm.js';
import { downloadSigned, prepareDocument } from '../support/signing/signing-session-client.js';
import { createNssDb, pdfsig } from '../support/signing/signing-validators.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'shop-api-secret-0123456789';
const npm = (args: string[], cwd: string) => promisify(execFile)('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd });

// The browser client's npm package as an integrator gets it: `npm pack` of the built client folder, installed from
// the tarball into an app of its own, served from the integrator's origin, and signing in Chromium against the
// station with a SoftHSM token.
describe('the browser client npm package, self-hosted', () => {
  let dir: string;
  let installed: string;
  let softhsm: SoftHsm;
  let station: TestStation;
  let server: Server;
  let origin: string;
  let browser: Browser;
  const prompt = new ScriptedPrompt();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'client-package-'));
    await npm(['pack', join(root, 'out', 'client'), '--pack-destination', dir], root);
    const [tarball] = (await readdir(dir)).filter((name) => name.endsWith('.tgz'));
    const app = join(dir, 'app');
    await mkdir(app);
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'shop', version: '1.0.0', private: true }));
    await npm(['install', join(dir, tarball!)], app);
    installed = join(app, 'node_modules', 'service-browser-client');

    softhsm = await createSoftHsm();
    await softhsm.createToken('Signing Token', '1234', [{ id: '01', algorithm: 'RSA-2048', usage: 'signing' }]);
    station = await startTestStation({}, { tokenSources: [softHsmTokenSource()], userPrompt: prompt });
    const script = await readFile(join(installed, 'service-browser-client.js'));
    server = createServer((request, response) => {
      if (request.url === '/vendor/service-browser-client.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>shop</title><script src="/vendor/service-browser-client.js"></script><div id="holder" style="height:80px"></div>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [origin] }, Buffer.from(SECRET));
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await station?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('installs the script, the ES module and the typings under the package’s name, and nothing the station serves compressed', async () => {
    const manifest = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8')) as { name: string; main: string; module: string; types: string };
    expect(manifest).toMatchObject({ name: 'service-browser-client', main: './service-browser-client.js', module: './service-browser-client.mjs', types: './service-browser-client.d.ts' });
    expect((await readdir(installed)).sort()).toEqual(['README.md', 'package.json', 'service-browser-client.d.ts', 'service-browser-client.js', 'service-browser-client.mjs']);
  });

  it('signs a PDF with the USB token from the integrator’s own copy of the client; pdfsig accepts it', async () => {
    const integration = { baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET };
    const docId = await prepareDocument(integration, 'pdf');
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(request.url())));
    await page.goto(`${origin}/`);
    const outcome = await runModule(page, {
      client: 'serviceBrowserClient',
      kind: 'signature',
      module: 'idCardSignature',
      settings: { clientId: 'shop', docId, countryCode: 'EE', base: station.baseUrl },
      options: { iframeHolder: true },
    });
    expect(outcome.calls, JSON.stringify(outcome.error)).toEqual(['success', 'finished']);
    expect(scripts.filter((url) => url.includes('service-browser-client'))).toEqual([`${origin}/vendor/service-browser-client.js`]);
    expect(prompt.confirms.at(-1)).toMatchObject({ purpose: 'sign', requester: origin });
    const { file } = await downloadSigned(integration, docId);
    await writeFile(join(dir, 'signed.pdf'), file);
    const report = await pdfsig(await createNssDb(join(dir, 'nss'), softhsm.ca.pem), join(dir, 'signed.pdf'));
    expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true, totalDocumentSigned: true });
    await page.close();
  });
});
