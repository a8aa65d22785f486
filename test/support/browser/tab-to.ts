import type { Page } from 'playwright-core';

/** Presses Tab (and nothing else) until the focused element is the one `matches` picks; fails after 40 presses. */
export async function tabTo(page: Page, matches: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((selector) => document.activeElement?.matches(selector) ?? false, matches)) return;
  }
  throw new Error(`Tab never reached ${matches}`);
}
