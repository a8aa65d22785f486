import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openStationWindow, type StationWindowTestbed } from '../support/browser/station-window-testbed.js';
import { writePagePdf } from '../support/signing/signing-test-pdfs.js';
import { textInRegion } from '../support/signing/pdf-region.js';

/** The box as its label reads it out: top-left corner from the page's top-left corner, and its size, in points. */
function boxOf(label: string | null): { x: number; y: number; width: number; height: number } {
  const match = /(\d+) pt from the left, (\d+) pt from the top.*?(\d+) × (\d+) pt/.exec(label ?? '');
  if (!match) throw new Error(`no position or size in the signature box's label: ${label}`);
  return { x: Number(match[1]), y: Number(match[2]), width: Number(match[3]), height: Number(match[4]) };
}

describe('placing the visible signature on the Sign screen, in Chromium', () => {
  let testbed: StationWindowTestbed;
  let page: Page;
  let dir: string;
  let pdf: string;

  beforeAll(async () => {
    testbed = await openStationWindow({
      dirPrefix: 'ui-placement-',
      token: { label: 'Placement Token', pin: '1234', keys: [{ id: '0b', algorithm: 'RSA-2048', usage: 'signing', subject: 'CN=Mari-Liis Männik,O=Signing Station Tests,C=EE' }] },
    });
    ({ page, dir } = testbed);
    // A heading along the top and a footer in the bottom-left corner, where a box put by a fixed rule would land.
    const footer = [24, 38, 52, 66, 80].map((y) => `BT /F1 10 Tf 18 ${y} Td (Footer line at ${y} pt, printed across the corner) Tj ET`).join('\n');
    pdf = await writePagePdf(join(dir, 'agreement.pdf'), '/MediaBox [0 0 612 792]', `BT /F1 18 Tf 72 740 Td (Agreement heading at the top of the page) Tj ET\n${footer}`);
  });
  afterAll(() => testbed?.dispose());

  it('puts the box first where the page shows nothing (the free space signing finds), with no overlap warning', async () => {
    await expect.poll(() => page.getByLabel('Signing certificate').textContent()).toContain('Mari-Liis Männik');
    await page.locator('input[type=file]').first().setInputFiles(pdf);
    await expect.poll(() => page.getByTestId('page-preview').getByRole('img').getAttribute('aria-label')).toBe('Page 1 of 1');
    await page.getByLabel('Visible signature on the page').check();
    const box = page.getByTestId('signature-box');
    await box.waitFor();
    const first = boxOf(await box.getAttribute('aria-label'));
    // Poppler reads the original page under the box: nothing printed there.
    expect((await textInRegion(pdf, 1, first)).trim()).toBe('');
    expect(await page.getByTestId('placement-overlap').textContent()).toBe('');
  });

  it('widens the box with Shift+ArrowRight, and by dragging its corner, keeping its place', async () => {
    const box = page.getByTestId('signature-box');
    const before = boxOf(await box.getAttribute('aria-label'));
    const drawn = (await box.boundingBox())!;
    await box.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => boxOf(await box.getAttribute('aria-label'))).toEqual({ ...before, width: before.width + 6 });
    expect((await box.boundingBox())!.width).toBeGreaterThan(drawn.width);

    // By the mouse: its corner dragged 30 px right and down.
    const corner = (await page.getByTestId('resize-handle').boundingBox())!;
    const keyed = boxOf(await box.getAttribute('aria-label'));
    await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await page.mouse.down();
    await page.mouse.move(corner.x + corner.width / 2 + 30, corner.y + corner.height / 2 + 30, { steps: 6 });
    await page.mouse.up();
    const dragged = boxOf(await box.getAttribute('aria-label'));
    expect(dragged).toMatchObject({ x: keyed.x, y: keyed.y });
    expect(dragged.width).toBeGreaterThan(keyed.width + 20);
    expect(dragged.height).toBeGreaterThan(keyed.height + 20);
  });

  it('shows the signer’s name, the date and the reason inside the box as the stamp will', async () => {
    const preview = page.getByTestId('stamp-preview');
    expect(await preview.textContent()).toContain('Mari-Liis Männik');
    await page.getByLabel('Reason (optional)').fill('Agreed terms');
    await expect.poll(() => preview.textContent()).toContain('Agreed terms');
  });

  it('warns when the box is dragged over the page’s text', async () => {
    const preview = page.getByTestId('page-preview');
    const box = page.getByTestId('signature-box');
    await preview.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    const area = (await preview.getByRole('img').boundingBox())!;
    const grabbed = (await box.boundingBox())!;
    const scale = area.width / 612;
    await page.mouse.move(grabbed.x + 4, grabbed.y + 4);
    await page.mouse.down();
    await page.mouse.move(area.x + 72 * scale + 4, area.y + 30 * scale + 4, { steps: 8 });
    await page.mouse.up();
    const moved = boxOf(await box.getAttribute('aria-label'));
    expect((await textInRegion(pdf, 1, moved)).trim()).not.toBe('');
    await expect.poll(() => page.getByTestId('placement-overlap').textContent()).toBe('The box covers text or pictures on the page: the signature would hide them. Move it to an empty place.');
  });
});
