import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: Promise<string> | undefined;

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core (WCAG 2 A/AA rules and axe's best practices) on what the page shows now and returns every
 * finding, whatever its impact. The script is evaluated through the DevTools protocol, so the page's CSP
 * (script-src 'self') does not stop it and the page itself is unchanged.
 */
export async function axeViolations(page: Page, tags: readonly string[] = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']): Promise<AxeFinding[]> {
  axeSource ??= readFile(axePath, 'utf8');
  await page.evaluate(await axeSource);
  return page.evaluate(async (values) => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values } });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(' ')) }));
  }, tags);
}
