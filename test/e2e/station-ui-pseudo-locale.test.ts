import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startWindowTour, type WindowTour } from '../support/browser/window-tour.js';

interface LayoutFindings {
  /** Visible text the catalogues did not give (no "[!! … !!]" around it), not data (translate="no") nor a localised time. */
  unwrapped: string[];
  /** Elements whose text is wider than their box. */
  clipped: string[];
  /** How far the page scrolls sideways. */
  sideways: number;
}

/** What a longer language would break, and what is left untranslated, on the screen the page shows now. */
function layoutFindings(page: Page): Promise<LayoutFindings> {
  return page.evaluate(() => {
    const unwrapped: string[] = [];
    const clipped = new Set<string>();
    const describe = (element: Element): string => `${element.tagName.toLowerCase()}${element.className ? `.${String(element.className).replace(/\s+/g, '.')}` : ''}: ${(element.textContent ?? '').slice(0, 60)}`;
    /** The text left once every message is taken out, innermost first (a PIN's name inside the PIN question). */
    const unwrap = (text: string): string => {
      let rest = text;
      let before: string;
      do {
        before = rest;
        rest = rest.replace(/\[!!(?:(?!\[!!)[\s\S])*?!!\]/g, '');
      } while (rest !== before);
      return rest;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement!;
      if (element.closest('script, style, [hidden]') || element.getClientRects().length === 0) continue;
      if (element.closest('details:not([open])') && !element.closest('summary')) continue;
      // Text is cut where it, or a box around it, is wider than the box shows.
      for (let box: Element | null = element; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).display !== 'inline' && box.scrollWidth > box.clientWidth + 1) clipped.add(describe(box));
      }
      if (element.closest('[translate="no"], time')) continue;
      const rest = unwrap(node.textContent ?? '');
      if (/[A-Za-z]{2,}/.test(rest)) unwrapped.push(`${rest.trim()} (in ${describe(element)})`);
    }
    // A closed list shows its chosen option only, which has no box of its own to walk to.
    for (const select of Array.from(document.querySelectorAll('select'))) {
      const option = select.selectedOptions[0];
      if (!option || select.getClientRects().length === 0 || option.closest('[translate="no"]')) continue;
      if (/[A-Za-z]{2,}/.test(unwrap(option.text))) unwrapped.push(`${option.text} (chosen in select[name=${select.name}])`);
    }
    return { unwrapped, clipped: [...clipped], sideways: document.documentElement.scrollWidth - window.innerWidth };
  });
}

describe('the station window in a pseudo-locale (every message wrapped and 40 % longer) at 800x600', () => {
  let tour: WindowTour;
  let page: Page;

  beforeAll(async () => {
    tour = await startWindowTour();
    page = await tour.open({ pseudo: true });
  });
  afterAll(async () => {
    await tour?.dispose();
  });

  it('shows every message from the catalogues (the wrapped pseudo-locale), on the first screen', async () => {
    expect(await page.getByRole('navigation').getByRole('button').first().textContent()).toMatch(/^\[!! Šîgñ ẋ+ !!\]$/);
  });

  it('leaves no English, no clipped text and no sideways scroll on any screen', async () => {
    const findings: Record<string, LayoutFindings> = {};
    for (const stop of tour.stops) {
      await stop.show(page).catch((error: unknown) => {
        throw new Error(`could not reach ${stop.name}`, { cause: error });
      });
      findings[stop.name] = await layoutFindings(page);
    }
    const problems = Object.entries(findings).filter(([, found]) => found.unwrapped.length > 0 || found.clipped.length > 0 || found.sideways > 0);
    expect(Object.fromEntries(problems)).toEqual({});
  }, 180_000);
});
