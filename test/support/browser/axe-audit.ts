import type { Page } from 'playwright-core';
import { axeViolations, type AxeFinding } from './axe-violations.js';

/** The serious and critical findings of axe-core's WCAG 2 A/AA rules on what the page shows now. */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  const findings = await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  return findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}
