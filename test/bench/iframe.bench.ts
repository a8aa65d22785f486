// npm run bench iframe: the iframe helper as an embedding page meets it, in Chromium.
// 1. Card insertion -> certificate delivered to the embedding page (consent for certificate reads remembered for
//    that origin), over 20 insertions of the emulated ID card behind the real pcscd. Baseline, same run: pcscd's
//    own detection of the insertion (its card-inserted event). Target: median <= 300 ms.
// 2. getCertificate round trip with the card present and consent remembered. Baselines, same run: a bare
//    postMessage round trip to a frame of the same station, and a fetch of /api/health from that frame. Target:
//    median <= 100 ms.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { CardProcess } from '../cards/card-process.js';
import { startPcscd, waitFor, waitUntilNoCard } from '../support/pcsc/pcsc-test-env.js';
import { launchChromium } from '../support/browser/browser.js';
import { startTestStation } from '../support/station/test-station.js';
import { ScriptedPrompt } from '../support/station/scripted-prompt.js';
import { askHelper, helperMessages, pageWithHelper, startIntegrator } from '../support/browser/iframe-integrator.js';
import { PcscWatcher } from '../../src/station/tokens/pcsc/pcsc-watcher.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';

const INSERTIONS = 20;
const ROUND_TRIPS = 50;
const median = (values: number[]): number => medianAndSpread(values).median;
const fmt = (ms: number): string => `${ms.toFixed(1)} ms`;

/** Sends a request to the helper and resolves when its reply (the next message) arrives, in the page's own clock. */
async function timedRequest(page: Page, stationOrigin: string, message: object): Promise<number> {
  const before = (await helperMessages(page)).length;
  const start = performance.now();
  await askHelper(page, stationOrigin, message);
  await page.waitForFunction((count) => (window as unknown as { helperMessages: unknown[] }).helperMessages.length > count, before, { polling: 'raf' });
  return performance.now() - start;
}

const daemon = await startPcscd();
const card = await CardProcess.start({ kind: 'national-id', nationalId: { subject: 'CN=Bench Signer,2.5.4.5=PNOEE-38001085718,C=EE' } });
const prompt = new ScriptedPrompt();
const station = await startTestStation({}, { userPrompt: prompt });
const integrator = await startIntegrator();
await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: [integrator.origin] });
const browser = await launchChromium();
const watcher = new PcscWatcher();

try {
  const page = await pageWithHelper(browser, integrator, `${station.baseUrl}/web-element/os-broker/shop/id-signature`);
  await page.waitForFunction(() => (window as unknown as { helperMessages: unknown[] }).helperMessages.length === 1);
  await station.tokens.start(); // the sources start on first use; the card appears once they run
  await card.insert();
  await waitFor('card', () => station.tokens.tokens().some((token) => token.kind === 'pcsc'), 10_000);
  await timedRequest(page, station.baseUrl, { operation: 'getCertificate' }); // the user allows this origin once

  // Baseline 1: pcscd's own detection of an insertion.
  let detected: (() => void) | undefined;
  watcher.on((event) => {
    if (event.type === 'card-inserted') detected?.();
  });
  watcher.start();
  const detection: number[] = [];
  const delivered: number[] = [];
  for (let i = 0; i < INSERTIONS; i++) {
    await card.remove();
    await waitUntilNoCard();
    await waitFor('no card', () => !station.tokens.tokens().some((token) => token.kind === 'pcsc'), 10_000);
    await sleep(Math.random() * 400); // spread the insertions over pcscd's poll phase
    const before = (await helperMessages(page)).length;
    await askHelper(page, station.baseUrl, { operation: 'getCertificate' });
    const seen = new Promise<void>((resolve) => (detected = resolve));
    const start = performance.now();
    await card.insert();
    await seen;
    detection.push(performance.now() - start);
    await page.waitForFunction((count) => (window as unknown as { helperMessages: unknown[] }).helperMessages.length > count, before, { polling: 'raf' });
    delivered.push(performance.now() - start);
  }

  // 2: round trips with the card present, and the two baselines from a frame of the same station.
  const roundTrips: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) roundTrips.push(await timedRequest(page, station.baseUrl, { operation: 'getCertificate' }));
  const frame = page.frames().find((candidate) => candidate.url().startsWith(station.baseUrl))!;
  const bare = await frame.evaluate(async (runs) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await fetch('/api/health');
      times.push(performance.now() - start);
    }
    return times;
  }, ROUND_TRIPS);
  const echo: number[] = [];
  for (let i = 0; i < ROUND_TRIPS; i++) {
    const start = performance.now();
    await page.evaluate(() => new Promise<void>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage('ping');
    }));
    echo.push(performance.now() - start);
  }

  const insertion = median(delivered);
  const trip = median(roundTrips);
  console.log(`card insertion -> certificate in the page: median ${fmt(insertion)} (target <= 300 ms); pcscd's own detection ${fmt(median(detection))}; station + page add ${fmt(insertion - median(detection))}`);
  console.log(`getCertificate round trip: median ${fmt(trip)} (target <= 100 ms); baselines: fetch /api/health from the frame ${fmt(median(bare))}, a bare page.evaluate message round trip ${fmt(median(echo))}; ratio to the evaluate round trip ${(trip / median(echo)).toFixed(1)}x`);
  if (insertion > 300 || trip > 100) process.exitCode = 1;
} finally {
  watcher.stop();
  await browser.close();
  await integrator.close();
  await station.dispose();
  await card.remove().catch(() => undefined);
  await card.stop();
  await waitUntilNoCard().catch(() => undefined);
  await daemon.stop();
}
