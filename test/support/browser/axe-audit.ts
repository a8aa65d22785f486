import type { Page } from 'playwright-core';
import { axeViolations, type AxeFinding } from './axe-violations.js';

export type { AxeFinding } from './axe-violations.js';

/** Runs axe-core's WCAG 2 A/AA rules on what the page shows now and returns the serious and critical findings. */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  const found = await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  return found.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
