// npm run bench ui: the station window's weight and first paint, in Chromium against the headless station.
// 1. Entry bundle, gzip -9: the renderer's entry script (out/renderer, `npm run build`). Baseline, same run: a
//    bare React app (createRoot + one element) bundled and minified by esbuild. Target: <= 120 KB.
// 2. First paint and first state: 10 fresh loads through one-time links; first-contentful-paint from the
//    browser's paint timing, and the time until the station's pushed state is on screen (the mode badge).
//    Baseline, same run: first-contentful-paint of the station's static home page. Target: first paint < 1 s.
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser/browser.js';
import { startTestStation } from '../support/station/test-station.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';

const LOADS = 10;
const median = (values: number[]): number => medianAndSpread(values).median;
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

async function entryBundleGzip(): Promise<number> {
  const html = await readFile('out/renderer/index.html', 'utf8');
  const script = /<script[^>]+src="\.\/([^"]+)"/.exec(html)?.[1];
  if (!script) throw new Error('no entry script in out/renderer/index.html: run `npm run build`');
  return gzipSync(await readFile(join('out/renderer', script)), { level: 9 }).length;
}

async function bareReactGzip(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'ui-bench-'));
  try {
    await writeFile(join(dir, 'main.js'), "import { createElement } from 'react'; import { createRoot } from 'react-dom/client'; createRoot(document.body).render(createElement('p', null, 'hello'));");
    const result = await build({ entryPoints: [join(dir, 'main.js')], bundle: true, minify: true, write: false, format: 'esm', define: { 'process.env.NODE_ENV': '"production"' }, nodePaths: [join(process.cwd(), 'node_modules')] });
    return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function firstContentfulPaint(browser: Browser, url: string, readySelector?: string): Promise<{ paint: number; ready: number }> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(url);
  if (readySelector) await page.waitForSelector(readySelector);
  const times = await page.evaluate(async () => {
    const fcp = await new Promise<number>((resolve) => {
      new PerformanceObserver((list) => {
        const entry = list.getEntries().find((e) => e.name === 'first-contentful-paint');
        if (entry) resolve(entry.startTime);
      }).observe({ type: 'paint', buffered: true });
    });
    return { paint: fcp, ready: performance.now() };
  });
  await context.close();
  return times;
}

const [entry, bare] = await Promise.all([entryBundleGzip(), bareReactGzip()]);
console.log(`entry bundle (gzip -9): ${kb(entry)}; bare React app: ${kb(bare)} → ${(entry / bare).toFixed(2)}× (target ≤ 120 KB: ${entry <= 120 * 1024 ? 'met' : 'NOT met'})`);

const station = await startTestStation({ pcsc: { enabled: false, atrMap: [] } });
const browser = await launchChromium();
try {
  await firstContentfulPaint(browser, station.uiUrl(), '[data-testid=mode]'); // warm the server and the browser's disk cache
  const home: number[] = [];
  const paints: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    home.push((await firstContentfulPaint(browser, `${station.baseUrl}/`)).paint);
    const ui = await firstContentfulPaint(browser, station.uiUrl(), '[data-testid=mode]');
    paints.push(ui.paint);
    ready.push(ui.ready);
  }
  console.log(`first contentful paint, median of ${LOADS}: station home page ${median(home).toFixed(0)} ms (baseline); station window ${median(paints).toFixed(0)} ms → ${(median(paints) / median(home)).toFixed(2)}× (target < 1000 ms: ${median(paints) < 1000 ? 'met' : 'NOT met'}); pushed state on screen ${median(ready).toFixed(0)} ms`);
} finally {
  await browser.close();
  await station.dispose();
}
