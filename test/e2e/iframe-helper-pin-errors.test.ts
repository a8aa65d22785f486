import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startTestStation, type TestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm } from '../support/pkcs11/pkcs11-softhsm.js';
import { startShopTestbed, type ShopTestbed } from '../support/browser/iframe-integrator.js';
import { runModule } from '../support/browser/client-integrator.js';
import { prepareDocument } from '../support/signing/signing-session-client.js';

const SECRET = 'shop-api-secret-0123456789';

// A PKCS#11 token tells no count of tries left, only flags: after a wrong PIN SoftHSM raises "count low". A person
// who then cancels the station's PIN prompt is a cancel for the page, which says the PIN was wrong and that few
// tries are left, with the token's flags in `details.pin`. Real SoftHSM token, Chromium, the station's client.
describe('iframe helper: a PIN prompt cancelled after a wrong PIN (PKCS#11 token)', () => {
  let softhsm: SoftHsm;
  let station: TestStation;
  let shop: ShopTestbed;
  let page: Page;
  const prompt = new ScriptedPrompt();

  const sign = async (language: string) =>
    runModule(page, {
      client: 'serviceBrowserClient',
      kind: 'signature',
      module: 'idCardSignature',
      settings: { clientId: 'shop', docId: await prepareDocument({ baseUrl: station.baseUrl, clientId: 'shop', secret: SECRET }), countryCode: 'EE', language, base: station.baseUrl },
      options: { iframeHolder: true },
    });

  beforeAll(async () => {
    softhsm = await createSoftHsm();
    await softhsm.createToken('Signing Token', '1234', [{ id: '01', algorithm: 'P-256', usage: 'signing' }]);
    station = await startTestStation({}, { tokenSources: [softHsmTokenSource()], userPrompt: prompt });
    shop = await startShopTestbed(station, SECRET, { scripts: [`${station.baseUrl}/client/service-browser-client.js`] });
    page = await shop.browser.newPage();
    await page.goto(`${shop.integrator.origin}/`);
  });
  afterAll(async () => {
    await shop?.close();
    await station?.dispose();
    await softhsm?.dispose();
  });

  it('is isCancel with the token’s flags in details.pin and a userMessage that says the PIN was wrong and few tries are left', async () => {
    prompt.pinAnswers.push('0000', null);
    const outcome = await sign('ru');
    expect(outcome.calls).toEqual(['fail', 'finished']);
    expect(outcome.error).toMatchObject({
      isCancel: true,
      code: 'ERR_TOKEN_USER_CANCELLED',
      details: { pin: { wrong: true, countLow: true, finalTry: false } },
      userMessage: 'Отменено после неверного PIN. Ничего не подписано. Осталось мало попыток до блокировки PIN.',
    });
    expect(prompt.pins.slice(-2)).toEqual([expect.objectContaining({ previousAttemptFailed: false }), expect.objectContaining({ previousAttemptFailed: true, countLow: true })]);
  });

  it('a cancel with no wrong PIN before it stays a plain cancel', async () => {
    prompt.pinAnswers.push(null);
    const outcome = await sign('en');
    expect(outcome.error).toMatchObject({ isCancel: true, userMessage: 'Cancelled. Nothing was signed or shared.' });
    expect(outcome.error?.details).toBeUndefined();
  });
});
