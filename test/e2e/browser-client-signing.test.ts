import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import type { Integrator } from '../support/browser/iframe-integrator.js';
import { BOTH_CLIENTS, runModule, startClientTestbed, type ClientTestbed, type ClientGlobal } from '../support/browser/client-integrator.js';
import { downloadSigned, prepareDocument } from '../support/signing/signing-session-client.js';
import { createNssDb, pdfsig, xmlsecVerify } from '../support/signing/signing-validators.js';
import { extractZip } from '../support/signing/signing-zip-extract.js';

const SECRET = 'shop-api-secret-0123456789';
const CHAVE_MOVEL_PHONE = '+351912345678';
/** A 1×1 PNG: the signature the user drew, for handwritten signing. */
const DRAWN_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// Smart-ID, Mobile-ID and OTP signing through the sandbox simulators, with both browser clients on the same
// integrator page; the signed files are checked by pdfsig and xmlsec1 with the simulators' test CA trusted.
describe('browser client: Smart-ID, Mobile-ID and OTP signing against the sandbox simulators', () => {
  let dir: string;
  let testbed: ClientTestbed | undefined;
  let station: TestStation;
  let integrator: Integrator;
  let browser: Browser;
  let page: Page;
  let testCaPem: string;

  const integration = () => ({ baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET });
  const prepare = (containerType: 'pdf' | 'asice' = 'pdf'): Promise<string> => prepareDocument(integration(), containerType);
  const download = (docId: string) => downloadSigned(integration(), docId);
  const sign = (client: ClientGlobal, module: string, docId: string, options: Record<string, unknown>, confirmationCode?: string) =>
    runModule(page, { client, kind: 'signature', module, settings: { clientId: 'shop', docId, countryCode: 'EE', base: station.baseUrl }, options, ...(confirmationCode ? { confirmationCode } : {}) });
  const assertValidPdf = async (docId: string, name: string): Promise<void> => {
    const { file } = await download(docId);
    await writeFile(join(dir, `${name}.pdf`), file);
    const report = await pdfsig(await createNssDb(join(dir, `nss-${name}`), testCaPem), join(dir, `${name}.pdf`));
    expect(report.signatures[0], report.output).toMatchObject({ valid: true, trusted: true, totalDocumentSigned: true });
  };
  /**
   * Asks the station to send a one-time password by e-mail (or SMS to `phone`), as the integrator's page does, and
   * reads it from the outbox.
   */
  const sendOtp = async (docId: string, phone?: string): Promise<string> => {
    const recipient = phone ? { phone } : { email: 'signer@example.com' };
    const sent = await page.evaluate(
      async ([base, doc, to]) => (await fetch(`${base}/api/signatures/start-signing`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'shop', doc_id: doc, sign_type: 'otp-email-non-qualified', ...to }) })).status,
      [station.baseUrl, docId, recipient] as const,
    );
    expect(sent).toBe(200);
    return readOutboxCode(docId, phone);
  };
  const readOutboxCode = async (docId: string, to = 'signer@example.com'): Promise<string> => {
    const { messages } = (await (await fetch(`${station.baseUrl}/sandbox/outbox.json`)).json()) as { messages: Array<{ to: string; text: string }> };
    const message = messages.find((candidate) => candidate.text.includes(docId));
    expect(message?.to).toBe(to);
    return /\b(\d{6})\b/.exec(message!.text)![1]!;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'client-signing-'));
    testbed = await startClientTestbed({ secret: SECRET, sandboxTimings: { userActionMs: 300, userTimeoutMs: 1_500 } });
    ({ station, integrator, browser, page } = testbed);
    testCaPem = await (await fetch(`${station.baseUrl}/sandbox/test-ca.pem`)).text();
    // The user reading the confirmation code the station last "sent" (its outbox, newest first: to the cloud
    // account, or by SMS to the Chave Móvel phone), and typing it.
    await page.exposeFunction('confirmationCode', async () => {
      const { messages } = (await (await fetch(`${station.baseUrl}/sandbox/outbox.json`)).json()) as { messages: Array<{ to: string; text: string }> };
      return /\b(\d{6})\b/.exec(messages.find((message) => message.to === 'cloud-user' || message.to === CHAVE_MOVEL_PHONE)!.text)![1]!;
    });
  });
  afterAll(async () => {
    await testbed?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves a clearly marked test CA', () => {
    expect(testCaPem).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  for (const client of BOTH_CLIENTS) {
    it(`${client}: smartIdSignature for 10101010005 shows the challenge, signs; pdfsig accepts the PDF with the test CA`, async () => {
      const docId = await prepare();
      const outcome = await sign(client, 'smartIdSignature', docId, { idcode: '10101010005' });
      expect(outcome.calls).toEqual(['started', 'success', 'finished']);
      expect(outcome.result).toMatchObject({ data: { status: 'OK', signer_idcode: '10101010005', signer_firstname: 'DEMO' } });
      const { body } = await download(docId);
      expect(body).toMatchObject({ signer_idcode: '10101010005', signing_method: 'smart-id-signature' });
      await assertValidPdf(docId, `smart-id-${client}`);
    });

    it(`${client}: mobileIdSignature for 60001019906 / +37200000766 signs`, async () => {
      const docId = await prepare();
      const outcome = await sign(client, 'mobileIdSignature', docId, { idcode: '60001019906', phone: '+37200000766' });
      expect(outcome.calls).toEqual(['started', 'success', 'finished']);
      expect(outcome.started).toMatchObject({ data: { challenge: expect.stringMatching(/^\d{4}$/) } });
      await assertValidPdf(docId, `mobile-id-${client}`);
    });

    it(`${client}: a Smart-ID user who refuses, and one who never answers, fail; nothing is signed`, async () => {
      const docId = await prepare();
      const refused = await sign(client, 'smartIdSignature', docId, { idcode: '30403039917' });
      expect(refused.calls).toEqual(['started', 'fail', 'finished']);
      expect(refused.error?.userMessage).toMatch(/refused/);
      const timedOut = await sign(client, 'smartIdSignature', docId, { idcode: '30403039928' });
      expect(timedOut.calls).toEqual(['started', 'fail', 'finished']);
      expect(timedOut.error?.userMessage).toMatch(/in time/);
      expect((await download(docId)).body).toMatchObject({ status: 'error' });
    });

    it(`${client}: a Mobile-ID number that is not an account fails at start`, async () => {
      const outcome = await sign(client, 'mobileIdSignature', await prepare(), { idcode: '60001019906', phone: '+37299999999' });
      expect(outcome.calls).toEqual(['fail', 'finished']);
      expect(outcome.error?.userMessage).toMatch(/not a Mobile-ID sandbox account/);
    });

    it(`${client}: otpSignature with the code from the outbox signs an ASiC-E that xmlsec1 accepts with the test CA`, async () => {
      const docId = await prepare('asice');
      const wrong = await sign(client, 'otpSignature', docId, { emailToken: '000000x' });
      expect(wrong.calls).toEqual(['fail', 'finished']);
      const code = await sendOtp(docId);
      const outcome = await sign(client, 'otpSignature', docId, { emailToken: code });
      expect(outcome.calls).toEqual(['success', 'finished']);
      const { file } = await download(docId);
      await writeFile(join(dir, `otp-${client}.asice`), file);
      const root = join(dir, `otp-${client}`);
      await extractZip(join(dir, `otp-${client}.asice`), root);
      await writeFile(join(dir, 'test-ca.pem'), testCaPem);
      const xmlsec = await xmlsecVerify(root, 'META-INF/signatures0.xml', join(dir, 'test-ca.pem'));
      expect(xmlsec.code, xmlsec.stderr).toBe(0);
    });
  }

  // The other challenge and transaction kinds: the same simulated app, under each module's own inputs and country.
  const TRANSACTION_MODULES: ReadonlyArray<[string, Record<string, unknown>]> = [
    ['evroTrustSignature', { idcode: '38001085718', email: 'signer@example.com', phone: '+359888000000' }],
    ['frejaSimpleSignature', { email: 'signer@example.com', countryCode: 'SE' }],
    ['swissComQesSignature', { phone: '+41790000000', countryCode: 'CH' }],
    ['halcomQesSignature', { username: 'signer', email: 'signer@example.com', phone: '+38640000000', countryCode: 'SI' }],
    ['haricaQesSignature', { username: 'signer', password: 'secret', otpCode: '123456', countryCode: 'GR' }],
    ['bTrustQesSignature', { profileId: 'profile-1', countryCode: 'BG' }],
    ['diiaQesSignature', { countryCode: 'UA' }],
    ['audkenniQesSignature', { idcode: '1201743399', countryCode: 'IS' }],
  ];
  for (const client of BOTH_CLIENTS) {
    for (const [module, options] of TRANSACTION_MODULES) {
      it(`${client}: ${module} signs through the simulated app`, async () => {
        const docId = await prepare();
        const outcome = await sign(client, module, docId, options);
        expect(outcome.calls, JSON.stringify(outcome)).toEqual(['started', 'success', 'finished']);
        expect((await download(docId)).body).toMatchObject({ signer_lastname: 'TESTPERSON' });
      });
    }

    it(`${client}: evroTrustSignature for the refusing demo account fails`, async () => {
      const outcome = await sign(client, 'evroTrustSignature', await prepare(), { idcode: '30403039917', email: 'signer@example.com', phone: '+359888000000' });
      expect(outcome.calls).toEqual(['started', 'fail', 'finished']);
      expect(outcome.error?.userMessage).toMatch(/refused/);
    });
  }

  for (const client of BOTH_CLIENTS) {
    it(`${client}: uanatacaQesSignature asks confirmationCodeRequest for the code the account received, then signs`, async () => {
      const docId = await prepare();
      const wrong = await sign(client, 'uanatacaQesSignature', docId, { username: 'cloud-user', password: 'pw', pin: '1234', countryCode: 'ES' }, '999999x');
      expect(wrong.calls).toEqual(['started', 'confirmationCodeRequest', 'fail', 'finished']);
      expect(wrong.error?.userDetails).toMatchObject({ confirmation_code: ['does not match'] });
      const outcome = await sign(client, 'uanatacaQesSignature', docId, { username: 'cloud-user', password: 'pw', pin: '1234', countryCode: 'ES' }, 'exposed');
      expect(outcome.calls).toEqual(['started', 'confirmationCodeRequest', 'success', 'finished']);
      expect((await download(docId)).body).toMatchObject({ signing_method: 'uanataca-qes-signature', signer_lastname: 'TESTPERSON' });
    });
  }

  for (const client of BOTH_CLIENTS) {
    it(`${client}: otpSignature with the SMS code (smsToken) signs as that phone; a wrong SMS code fails`, async () => {
      const docId = await prepare();
      const code = await sendOtp(docId, '+37255000001');
      const wrong = await sign(client, 'otpSignature', docId, { smsToken: code === '000000' ? '111111' : '000000' });
      expect(wrong.calls).toEqual(['fail', 'finished']);
      expect(wrong.error?.userDetails).toMatchObject({ sms_token: ['does not match'] });
      const outcome = await sign(client, 'otpSignature', docId, { smsToken: code });
      expect(outcome.calls).toEqual(['success', 'finished']);
      expect((await download(docId)).body).toMatchObject({ signing_method: 'otp-email-non-qualified', signer_lastname: '+37255000001' });
    });

    it(`${client}: diiaQesSignature and esLleidaAdvSignature give the app's QR code and link to started`, async () => {
      for (const [module, method, options] of [
        ['diiaQesSignature', 'diia-qes-signature', { countryCode: 'UA' }],
        ['esLleidaAdvSignature', 'es-lleida-advanced-signature', { username: 'signer', pin: '1234', countryCode: 'ES' }],
      ] as const) {
        const outcome = await sign(client, module, await prepare(), options);
        expect(outcome.calls, module).toEqual(['started', 'success', 'finished']);
        const link = expect.stringMatching(new RegExp(`^signing-station-sandbox://${method}/sign\\?session=`));
        expect(outcome.started, module).toMatchObject({ data: { qr_code: link, redirect_uri: link } });
      }
    });

    it(`${client}: handwrittenSignature with the outbox code and a drawn PNG signs; without a drawing it fails and keeps the code`, async () => {
      const docId = await prepare();
      const code = await sendOtp(docId);
      const undrawn = await sign(client, 'handwrittenSignature', docId, { emailToken: code });
      expect(undrawn.calls).toEqual(['fail', 'finished']);
      expect(undrawn.error?.userDetails).toMatchObject({ handwritten_signature_data: ['required'] });
      const outcome = await sign(client, 'handwrittenSignature', docId, { emailToken: code, handwrittenSignatureDataUrl: `data:image/png;base64,${DRAWN_PNG}` });
      expect(outcome.calls, JSON.stringify(outcome.error)).toEqual(['success', 'finished']);
      expect((await download(docId)).body).toMatchObject({ signing_method: 'handwritten-simple-signature', signer_lastname: 'signer@example.com' });
      await assertValidPdf(docId, `handwritten-${client}`);
    });

    it(`${client}: chaveMovelSignature encrypts phone, PIN and code with the provider's key; the code sent to the phone signs`, async () => {
      const docId = await prepare();
      const options = { phone: CHAVE_MOVEL_PHONE, signingPin: '1234', countryCode: 'PT' };
      const badPin = await sign(client, 'chaveMovelSignature', docId, { ...options, signingPin: 'abcd' }, 'exposed');
      expect(badPin.calls).toEqual(['fail', 'finished']);
      expect(badPin.error?.userDetails).toMatchObject({ signing_pin: ['not 4 to 8 digits'] });
      const wrong = await sign(client, 'chaveMovelSignature', docId, options, '999999');
      expect(wrong.calls).toEqual(['started', 'confirmationCodeRequest', 'fail', 'finished']);
      expect(wrong.error?.userDetails).toMatchObject({ confirmation_code: ['does not match'] });
      const outcome = await sign(client, 'chaveMovelSignature', docId, options, 'exposed');
      expect(outcome.calls).toEqual(['started', 'confirmationCodeRequest', 'success', 'finished']);
      expect((await download(docId)).body).toMatchObject({ signing_method: 'chave-movel-qes-signature', signer_lastname: 'TESTPERSON' });
    });
  }

  it('chave-movel start refuses a phone or PIN sent in clear (not encrypted with the key)', async () => {
    const response = await fetch(`${station.baseUrl}/api/signatures/start-signing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'shop', doc_id: await prepare(), sign_type: 'chave-movel-qes-signature', phone: 'KzM1MTkxMjM0NTY3OA==', signing_pin: 'MTIzNA==' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'ERR_INPUT_INVALID', errors: { phone: ['cannot be decrypted'] } });
  });

  it('serviceBrowserClient: cancel() while Smart-ID signing waits for the user fails with isCancel; nothing is signed', async () => {
    const docId = await prepare();
    const outcome = await runModule(page, {
      client: 'serviceBrowserClient',
      kind: 'signature',
      module: 'smartIdSignature',
      settings: { clientId: 'shop', docId, countryCode: 'EE', base: station.baseUrl },
      options: { idcode: '30403039928' },
      cancelWhenStarted: true,
    });
    expect(outcome.calls).toEqual(['started', 'fail', 'finished']);
    expect(outcome.error?.isCancel).toBe(true);
    expect((await download(docId)).body).toMatchObject({ status: 'error' });
  });

  it('serviceBrowserClient: smartIdSignature with waitForChallengeCode false gets the challenge with the polls', async () => {
    const docId = await prepare();
    const outcome = await sign('serviceBrowserClient', 'smartIdSignature', docId, { idcode: '10101010005', waitForChallengeCode: false });
    expect(outcome.calls).toEqual(['started', 'success', 'finished']);
    expect(outcome.started).not.toHaveProperty('data.challenge');
    expect(outcome.started).toMatchObject({ data: { token: expect.any(String) } });
    expect(outcome.tries[0]).toMatchObject({ data: { status: 'RUNNING', challenge: expect.stringMatching(/^\d{4}$/) } });
  });

  it('serviceBrowserClient: otpSignature without a code asks the station to send one and confirmationCodeRequest for it', async () => {
    const docId = await prepare();
    const started = runModule(page, {
      client: 'serviceBrowserClient',
      kind: 'signature',
      module: 'otpSignature',
      settings: { clientId: 'shop', docId, countryCode: 'EE', base: station.baseUrl },
      options: { email: 'signer@example.com' },
      confirmationCode: 'from-outbox',
    });
    // The page answers confirmationCodeRequest with a fixed text: the station refuses it as a wrong code.
    const outcome = await started;
    expect(outcome.calls).toEqual(['confirmationCodeRequest', 'fail', 'finished']);
    expect(outcome.error?.userDetails).toMatchObject({ email_token: ['does not match'] });
    expect(await readOutboxCode(docId)).toMatch(/^\d{6}$/);
  });
});

describe('sandbox signing in production mode', () => {
  it('refuses the simulators (ZealiD’s signature start and iframe URL, Chave Móvel’s key too) and hides the sandbox pages', async () => {
    const station = await startTestStation({ mode: 'production', pcsc: { enabled: false, atrMap: [] } });
    try {
      const origin = 'http://127.0.0.1:9';
      await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [origin], redirectUris: [`${origin}/back`] }, Buffer.from(SECRET));
      for (const signType of ['smart-id', 'mobile-id', 'otp-email-non-qualified']) {
        const response = await fetch(`${station.baseUrl}/api/signatures/start-signing`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ client_id: 'shop', doc_id: 'x'.repeat(20), sign_type: signType, idcode: '10101010005', phone: '+37200000766', email: 'a@example.com' }),
        });
        expect(response.status, signType).toBe(403);
        expect(await response.json()).toMatchObject({ status: 'error', code: 'ERR_SIGNING_SANDBOX_ONLY' });
      }
      const zealIdSigning = await fetch(`${station.baseUrl}/zealid/signature/start?client_id=shop&doc_id=${'x'.repeat(20)}`, { redirect: 'manual' });
      expect(zealIdSigning.status).toBe(403);
      expect(await zealIdSigning.json()).toMatchObject({ code: 'ERR_SIGNING_SANDBOX_ONLY' });
      const zealIdFrame = await fetch(`${station.baseUrl}/api/identity/shop/zealid/get_iframe_url`, { headers: { origin } });
      expect(zealIdFrame.status).toBe(403);
      expect(await zealIdFrame.json()).toMatchObject({ code: 'ERR_IDENTITY_SANDBOX_ONLY' });
      const chaveMovelKey = await fetch(`${station.baseUrl}/api/chave-movel-public-key`, { headers: { origin } });
      expect(chaveMovelKey.status).toBe(403);
      expect((await fetch(`${station.baseUrl}/sandbox/outbox`)).status).toBe(404);
      expect((await fetch(`${station.baseUrl}/sandbox/test-ca.pem`)).status).toBe(404);
    } finally {
      await station.dispose();
    }
  });
});
