import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestStation, type TestStation } from '../station/test-station.js';
import { createSoftHsm, type SoftHsm, type SoftHsmKeySpec, softHsmTokenSource } from '../pkcs11/pkcs11-softhsm.js';
import { launchChromium } from './browser.js';

export interface StationWindowTestbed {
  dir: string;
  softhsm: SoftHsm;
  station: TestStation;
  browser: Browser;
  page: Page;
  dispose(): Promise<void>;
}

/**
 * The station's window as a signer meets it: a SoftHSM token with `keys` (found by the station's own token source,
 * no setup), the station, and its UI open in Chromium at 1100x900 in English. `loginIdleMs`: how long the token
 * stays logged in after a signature (the source's default when not given).
 */
export async function openStationWindow(options: { dirPrefix: string; token: { label: string; pin: string; keys: SoftHsmKeySpec[] }; loginIdleMs?: number }): Promise<StationWindowTestbed> {
  const dir = await mkdtemp(join(tmpdir(), options.dirPrefix));
  const softhsm = await createSoftHsm();
  await softhsm.createToken(options.token.label, options.token.pin, options.token.keys);
  const source = softHsmTokenSource({ pollIntervalMs: 100, reinitializeIntervalMs: 200, ...(options.loginIdleMs === undefined ? {} : { loginIdleMs: options.loginIdleMs }) });
  const station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } }, { tokenSources: [source] });
  const { browser, page } = await showStationWindow(station, { width: 1100, height: 900 });
  return {
    dir,
    softhsm,
    station,
    browser,
    page,
    async dispose() {
      await browser.close();
      await station.dispose();
      await softhsm.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A Chromium showing `station`'s window at `viewport`, in English unless `locale` says otherwise, once the window has drawn its mode. */
export async function showStationWindow(station: TestStation, viewport: { width: number; height: number }, locale = 'en-US'): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const page = await (await browser.newContext({ viewport, locale })).newPage();
  await page.goto(station.uiUrl());
  await page.getByTestId('mode').waitFor();
  return { browser, page };
}
