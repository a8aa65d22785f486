import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { showStationWindow } from '../support/browser/station-window-testbed.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';

// The station's PC/SC module is pointed at a file that does not exist, as on a machine where smartcard's native
// build was skipped at install: the readers source reports ERR_PCSC_UNAVAILABLE, and the window says so in the
// reader's language, with the station's own words (the module, the packages) after it.
const MISSING_MODULE = '/nonexistent/smartcard-native.node';

describe('the Settings screen in Chromium: a token source that cannot be used', () => {
  let station: TestStation;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    process.env.SIGNING_STATION_SMARTCARD_MODULE = MISSING_MODULE;
    station = await startTestStation({ pcsc: { enabled: true, atrMap: [] } });
    ({ browser, page } = await showStationWindow(station, { width: 1100, height: 900 }, 'et-EE'));
  });
  afterAll(async () => {
    await browser?.close();
    await station?.dispose();
    delete process.env.SIGNING_STATION_SMARTCARD_MODULE;
  });

  it('names the problem in the reader’s language, then the station’s own words', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'Seaded', exact: true }).click();
    const problem = page.getByTestId('source-problem');
    await expect.poll(() => problem.textContent(), { timeout: 10_000 }).toContain('Kaardilugejaid ei saa kasutada');
    const text = await problem.textContent();
    expect(text).toMatch(/^Smart card readers: /);
    expect(text).toContain(`PC/SC is unavailable: the ${MISSING_MODULE} module could not be loaded`);
  });
});
