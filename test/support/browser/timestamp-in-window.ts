import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** Timestamps `path` from the English window's Timestamp screen as a .tsr; answers the shown result once it is there. */
export async function timestampInWindow(page: Page, path: string): Promise<Locator> {
  await page.getByRole('navigation').getByRole('button', { name: 'Timestamp' }).click();
  await page.locator('input[type=file]:visible').setInputFiles(path);
  await page.getByRole('button', { name: 'Timestamp', exact: true }).last().click();
  // The Sign screen, kept with its last result while hidden, also holds a result: only the shown one is read.
  const result = page.getByTestId('result').filter({ visible: true });
  await expect.poll(() => result.textContent()).toContain('Timestamped.');
  return result;
}
