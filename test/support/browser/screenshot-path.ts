import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a UI test saves a screenshot. The README's pictures are refreshed only on request
 * (UPDATE_SCREENSHOTS=1), so an ordinary test run leaves the clone as it found it.
 */
const directory =
  process.env['UPDATE_SCREENSHOTS'] === '1'
    ? (mkdirSync('docs/screenshots', { recursive: true }), 'docs/screenshots')
    : mkdtempSync(join(tmpdir(), 'screenshots-'));

export function screenshotPath(name: string): string {
  return join(directory, name);
}
