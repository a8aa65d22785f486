import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x509 } from '../../src/station/pki/x509.js';
import type { Browser } from 'playwright-core';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { createSoftHsm, type SoftHsm, type SoftHsmKey, softHsmTokenSource } from '../support/pkcs11/pkcs11-softhsm.js';
import { createNssDatabase, type NssDatabase } from '../support/pkcs11/pkcs11-nss-database.js';
import { downloadSigned, prepareDocument } from '../support/signing/signing-session-client.js';
import { createNssDb, embeddedSignatures, opensslCmsVerify, pdfsig } from '../support/signing/signing-validators.js';
import { askHelper, helperMessages, pageWithHelper, signWithPublishedClient, startShopTestbed, type Integrator, type ShopTestbed } from '../support/browser/iframe-integrator.js';
import { verifyWebEidAuthToken } from '../../src/station/identity/verify-web-eid-auth-token.js';
import type { WebEidAuthToken } from '../../src/core/schemas/iframe-protocol.js';

const SECRET = 'shop-api-secret-0123456789';

// The iframe helper where the user has more than one key: a USB token with two signing keys and an EC
// authentication key (SoftHSM2), and the browser's NSS certificate database as the certificate store.
describe('iframe helper with several keys, a USB token login key and the NSS certificate store', () => {
  let softhsm: SoftHsm;
  let tokenKeys: SoftHsmKey[];
  let nss: NssDatabase;
  let station: TestStation;
  let shop: ShopTestbed;
  let integrator: Integrator;
  let browser: Browser;
  let dir: string;
  const prompt = new ScriptedPrompt();

  const lastReply = async (page: Awaited<ReturnType<typeof pageWithHelper>>, count: number): Promise<Record<string, unknown>> => {
    await expect.poll(async () => (await helperMessages(page)).length, { timeout: 10_000 }).toBe(count);
    return (await helperMessages(page)).at(-1)!.data as Record<string, unknown>;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'iframe-choices-'));
    softhsm = await createSoftHsm();
    tokenKeys = await softhsm.createToken('Two Keys', '1234', [
      { id: '01', algorithm: 'RSA-2048', usage: 'signing' },
      { id: '02', algorithm: 'P-256', usage: 'signing' },
      { id: '03', algorithm: 'P-256', usage: 'authentication' },
    ]);
    nss = await createNssDatabase(softhsm.ca, 'db-password', [{ name: 'Browser Store Signer', algorithm: 'RSA-2048' }]);
    const source = softHsmTokenSource({ nssDatabases: [nss.dir] });
    station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } }, { tokenSources: [source], userPrompt: prompt });
    shop = await startShopTestbed(station, SECRET);
    ({ integrator, browser } = shop);
  });
  afterAll(async () => {
    await shop?.close();
    await station?.dispose();
    await nss?.dispose();
    await softhsm?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('asks the user to pick a certificate in the station, naming the real origin, and hands out the one picked', async () => {
    const page = await pageWithHelper(browser, integrator, `${station.baseUrl}/web-element/os-broker/shop/certeurope-usb-token-signature`);
    await lastReply(page, 1);
    prompt.choice = 1;
    await askHelper(page, station.baseUrl, { operation: 'getCertificate', country: 'EE' });
    const reply = await lastReply(page, 2);
    const choice = prompt.choices.at(-1)!;
    expect(choice.requester).toBe(integrator.origin);
    // Only the token's two signing keys are offered: not its authentication key, not the store's key.
    expect(choice.candidates.map((candidate) => candidate.subject).sort()).toEqual(
      tokenKeys.filter((key) => key.usage === 'signing').map((key) => key.certificate.certificate.subject).sort(),
    );
    expect(reply).toMatchObject({ operation: 'getCertificate', status: 'OK' });
    expect(new x509.X509Certificate(Buffer.from(reply.certificate as string, 'base64')).subject).toBe(choice.candidates[1]!.subject);

    prompt.choice = null;
    await askHelper(page, station.baseUrl, { operation: 'getCertificate', country: 'EE' });
    expect(await lastReply(page, 3)).toMatchObject({ operation: 'getCertificate', status: 'error', result: 'user_cancel' });
    prompt.choice = 0;
    await page.close();
  });

  it('makes a Web eID authentication token with a USB token’s EC authentication key, bound to the origin and nonce', async () => {
    const page = await pageWithHelper(browser, integrator, `${station.baseUrl}/web-element/os-broker/shop/ee-web-eid-login?doc_id=`);
    await lastReply(page, 1);
    const nonce = 'bm9uY2UgZm9yIGEgdXNiIHRva2VuIGxvZ2lu';
    prompt.pin = '1234';
    await askHelper(page, station.baseUrl, { operation: 'getAuthToken', nonce });
    const reply = (await lastReply(page, 2)) as { status: string; token: WebEidAuthToken };
    const authentication = tokenKeys.find((key) => key.usage === 'authentication')!;
    expect(reply).toMatchObject({ status: 'OK', token: { format: 'web-eid:1.0', algorithm: 'ES256', unverifiedCertificate: Buffer.from(authentication.certificate.der).toString('base64') } });
    expect(prompt.confirms.at(-1)).toMatchObject({ purpose: 'authenticate', requester: integrator.origin });
    expect(prompt.pins.at(-1)).toMatchObject({ tokenLabel: 'Two Keys', requester: integrator.origin });
    expect(verifyWebEidAuthToken(reply.token, { nonce, origins: [integrator.origin], now: new Date() }).subject).toBe(authentication.certificate.certificate.subject);
    expect(() => verifyWebEidAuthToken(reply.token, { nonce, origins: ['http://127.0.0.1:1'], now: new Date() })).toThrow(/allowed origin/);
    await page.close();
  });

  it('signs from the browser’s NSS certificate database with its password asked in the station; pdfsig accepts the PDF', async () => {
    const integration = { baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET };
    const docId = await prepareDocument(integration);
    prompt.pin = nss.password;
    const page = await browser.newPage();
    await page.goto(`${integrator.origin}/`);
    const outcome = await signWithPublishedClient(page, { stationUrl: station.baseUrl, clientId: 'shop', docId, module: 'certStoreQesSignature' });
    expect(outcome, outcome.detail).toMatchObject({ ok: true });
    expect(prompt.pins.at(-1)).toMatchObject({ tokenLabel: 'NSS Certificate DB', requester: integrator.origin });

    const path = join(dir, 'store.signed.pdf');
    await writeFile(path, (await downloadSigned(integration, docId)).file);
    const report = await pdfsig(await createNssDb(join(dir, 'nss-check'), softhsm.ca.pem), path);
    expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true });
    expect(report.signatures[0]!.text).toContain('Browser Store Signer');
    await writeFile(join(dir, 'store-ca.pem'), softhsm.ca.pem);
    const [embedded] = embeddedSignatures(await readFile(path));
    const openssl = await opensslCmsVerify(embedded!.cms, embedded!.signedContent, join(dir, 'store-ca.pem'));
    expect(openssl.code, openssl.stderr).toBe(0);
    await page.close();
  });
});
