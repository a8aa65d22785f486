import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium } from './browser.js';
import { startTestStation, type TestStation } from '../station/test-station.js';
import { createSoftHsm, softHsmTokenSource, type SoftHsm } from '../pkcs11/pkcs11-softhsm.js';
import { writePagesPdf } from '../signing/signing-test-pdfs.js';
import { createTestCa } from '../pki/test-pki.js';

/** One state of the station window a person meets, reached from the one before it. */
export interface TourStop {
  /** The screenshot's file name (without `.png`). */
  name: string;
  show(page: Page): Promise<void>;
  /**
   * What the stop shows that no fixed input can hold still, covered in the screenshot: the signed file's SHA-256,
   * as a signature holds fresh randomness (the ECDSA nonce, the timestamp request's nonce, the station's own TSA key).
   */
  varies?(page: Page): Locator[];
}

export interface WindowTour {
  station: TestStation;
  browser: Browser;
  /** A page on the window at 800x600, in `language` (or the pseudo-locale), through a fresh one-time link. */
  open(options: { language?: string; pseudo?: boolean }): Promise<Page>;
  /** Every screen and the states that matter on it, in an order that reaches each (a signing makes Activity's entry). */
  stops: TourStop[];
  dispose(): Promise<void>;
}

/** The navigation's buttons in the window's order; by position, so the tour runs the same in every language. */
const NAV = { sign: 0, timestamp: 1, verify: 2, identify: 3, settings: 4, activity: 5 } as const;
const PIN = '1234';

/**
 * What a screenshot run holds still, so that a second run draws the same pixels: the station's and the page's time
 * of day, the certificates' dates, the port, and the folders shown (a home of its own, on a tmpfs mounted in the
 * test environment's private mount namespace, so it is the same path every run and no other run shares it).
 */
const STABLE = {
  now: new Date('2026-06-01T09:30:00Z'),
  timezoneId: 'Europe/Tallinn',
  port: 27420,
  home: '/home/mari',
  ca: { notBefore: new Date('2025-01-01T00:00:00Z'), notAfter: new Date('2035-01-01T00:00:00Z') },
  signer: { notBefore: new Date('2026-01-01T00:00:00Z'), notAfter: new Date('2028-01-01T00:00:00Z') },
} as const;

/** A fresh, private /home with the tour's user in it; only inside scripts/test-env.sh's mount namespace. */
async function mountStableHome(): Promise<void> {
  if (!process.env['SIGNING_STATION_TEST_NAMESPACE']) throw new Error('a stable window tour mounts its own /home: run it through scripts/test-env.sh');
  await promisify(execFile)('mount', ['-t', 'tmpfs', '-o', 'mode=755', 'tmpfs', '/home']);
  await mkdir(STABLE.home, { mode: 0o700 });
  process.env['HOME'] = STABLE.home;
}

/**
 * A station with a SoftHSM token whose signer has a non-Latin name, and a browser, for walking the whole window
 * in each language: the screenshots and the accessibility and pseudo-locale checks take the same walk. `stable`
 * (the screenshots) holds still everything the window shows that would otherwise change from run to run.
 */
export async function startWindowTour({ stable = false }: { stable?: boolean } = {}): Promise<WindowTour> {
  const dir = await mkdtemp(join(tmpdir(), 'window-tour-'));
  if (stable) await mountStableHome();
  const softhsm: SoftHsm = await createSoftHsm();
  const issuer = stable ? { issuer: await createTestCa(undefined, 'P-256', STABLE.ca), ...STABLE.signer } : {};
  await softhsm.createToken('Desk Token', PIN, [{ id: '0a', algorithm: 'P-256', usage: 'signing', subject: 'CN=Анна Кузнецова,O=Signing Station Tests,C=EE', ...issuer }]);
  const fixed = stable ? { port: STABLE.port, dataDir: join(STABLE.home, '.local', 'share', 'signing-station') } : {};
  const tokenSources = [softHsmTokenSource({ pollIntervalMs: 100, reinitializeIntervalMs: 200, loginIdleMs: 0 })];
  const station = await startTestStation({ pcsc: { enabled: false, atrMap: [] }, ...fixed }, { tokenSources, ...(stable ? { clock: { now: () => new Date(STABLE.now) } } : {}) });
  // One raster thread for the pictures: tiles rasterised in a varying order smoothed a few edge pixels differently.
  const browser = await launchChromium(stable ? ['--num-raster-threads=1', '--force-color-profile=srgb'] : []);
  const contract = await writePagesPdf(join(dir, 'contract.pdf'), [{ entries: '', content: 'BT /F1 18 Tf 72 700 Td (Contract) Tj ET' }]);
  const notes = join(dir, 'notes.txt');
  await writeFile(notes, 'Not a signed file.\n');
  let signed = '';

  const nav = (page: Page, screen: keyof typeof NAV): Promise<void> => page.getByRole('navigation').getByRole('button').nth(NAV[screen]).click();
  const submit = (page: Page): Promise<void> => page.locator('main form:visible button[type=submit]').first().click();
  const chooseFile = (page: Page, path: string): Promise<void> => page.locator('main form:visible input[type=file]').first().setInputFiles(path);

  /** On `screen`, `file` picked and the form sent, until `outcome` shows. */
  const submitFile = async (page: Page, screen: keyof typeof NAV, file: string, outcome: string): Promise<void> => {
    await nav(page, screen);
    await chooseFile(page, file);
    await submit(page);
    await page.locator(outcome).first().waitFor({ timeout: 15_000 });
  };

  const stops: TourStop[] = [
    { name: 'sign-empty', show: async (page) => void (await page.getByTestId('no-certificate').or(page.locator('select[name=certificate]')).first().waitFor()) },
    {
      name: 'sign',
      show: async (page) => {
        await chooseFile(page, contract);
        await page.locator('input[name=visible]').check();
        await page.locator('.signature-box').waitFor();
      },
    },
    {
      name: 'consent',
      show: async (page) => {
        await page.locator('select[name=certificate]').waitFor();
        await submit(page);
        await page.locator('.prompt article').first().waitFor();
      },
    },
    {
      name: 'pin',
      show: async (page) => {
        await page.locator('.prompt article button.primary').first().click();
        await page.locator('.prompt input[name=pin]').waitFor();
      },
    },
    {
      name: 'sign-result',
      show: async (page) => {
        await page.locator('.prompt input[name=pin]').fill(PIN);
        await page.locator('.prompt input[name=pin]').press('Enter');
        signed = (await page.getByTestId('saved-path').textContent({ timeout: 20_000 })) ?? '';
      },
      varies: (page) => [page.getByTestId('result').getByText(/^SHA-256 [0-9a-f]{64}$/)],
    },
    { name: 'timestamp', show: (page) => submitFile(page, 'timestamp', notes, '[data-testid=result]:visible') },
    { name: 'verify', show: (page) => submitFile(page, 'verify', signed, '[data-testid=verdict]') },
    { name: 'verify-error', show: (page) => submitFile(page, 'verify', notes, '[role=alert]:visible') },
    { name: 'identify', show: async (page) => void (await nav(page, 'identify'), await page.locator('select[name=method] option').first().waitFor({ state: 'attached' })) },
    {
      name: 'settings',
      // The unlock time is asked of the station after the screen shows: the picture waits for its answer.
      show: async (page) => void (await nav(page, 'settings'), await page.locator('section[aria-labelledby=tokens-heading] select:enabled').first().waitFor()),
    },
    { name: 'activity', show: async (page) => void (await nav(page, 'activity'), await page.locator('table').waitFor()) },
  ];

  return {
    station,
    browser,
    stops,
    open: async ({ language = 'en', pseudo = false }) => {
      const context = await browser.newContext({ viewport: { width: 800, height: 600 }, locale: language, ...(stable ? { timezoneId: STABLE.timezoneId } : {}) });
      if (stable) await context.clock.setFixedTime(STABLE.now);
      await context.addInitScript(
        ([chosen, pseudoOn]) => {
          localStorage.setItem('station-ui-language', chosen);
          if (pseudoOn) localStorage.setItem('station-ui-pseudo-locale', 'on');
        },
        [language, pseudo] as const,
      );
      const page = await context.newPage();
      await page.goto(station.uiUrl());
      await page.getByTestId('mode').waitFor();
      return page;
    },
    dispose: async () => {
      await browser.close();
      await station.dispose();
      await softhsm.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
