import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations, type AxeFinding } from '../support/browser/axe-violations.js';
import { startWindowTour, type WindowTour } from '../support/browser/window-tour.js';
import { languages } from '../../src/renderer/src/i18n/catalogues.js';

/**
 * Every screen of the window in every language at 800x600, checked by axe-core and photographed. `npm run
 * screenshots` sets SCREENSHOTS_DIR to docs/screenshots, where the pictures the README links are kept; otherwise
 * they go to a temporary directory and the clone stays as it was.
 */
const screenshots = process.env['SCREENSHOTS_DIR'] ?? (await mkdtemp(join(tmpdir(), 'screens-')));

describe('every screen of the station window, in every language, at 800x600', () => {
  let tour: WindowTour;

  beforeAll(async () => {
    // Stable for the docs' pictures: a second `npm run screenshots` redraws every picture pixel for pixel. Only
    // then: the stable tour takes the station's default port, which other files of a test run start stations on.
    tour = await startWindowTour({ stable: process.env['SCREENSHOTS_DIR'] !== undefined });
  });
  afterAll(async () => {
    await tour?.dispose();
  });

  for (const language of languages) {
    it(`${language}: axe-core finds nothing on any screen`, async () => {
      const page = await tour.open({ language });
      await mkdir(join(screenshots, language), { recursive: true });
      const findings: Record<string, AxeFinding[]> = {};
      for (const stop of tour.stops) {
        await stop.show(page);
        // The pointer off every control (Chromium re-checks hover on a timer after a scroll), whole pixels of
        // scroll, and what the stop changed painted: two frames after it, the page holds still for the picture.
        await page.mouse.move(0, 0);
        await page.evaluate(() => window.scrollTo(0, Math.round(window.scrollY)));
        await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
        await page.screenshot({ path: join(screenshots, language, `${stop.name}.png`), mask: stop.varies?.(page) ?? [], maskColor: '#c9d3cc', animations: 'disabled' });
        const found = await axeViolations(page);
        if (found.length > 0) findings[stop.name] = found;
      }
      await page.context().close();
      expect(findings).toEqual({});
    }, 180_000);
  }

  it('axe-core finds nothing on the home page or on the certificate helper page', async () => {
    await tour.station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'] }, Buffer.from('shop secret, long enough'));
    const page = await tour.browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.goto(`${tour.station.baseUrl}/`);
    const home = await axeViolations(page);
    await page.goto(`${tour.station.baseUrl}/web-element/os-broker/shop/id-signature`);
    await page.locator('#status').filter({ hasText: /\S/ }).waitFor();
    const helper = await axeViolations(page);
    await page.close();
    expect({ home, helper }).toEqual({ home: [], helper: [] });
  });
});
