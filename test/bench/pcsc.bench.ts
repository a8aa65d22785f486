// Card connection to certificates available from the station's API (createPcscTokenSource), over 20
// insertions of the emulated eID card through the real pcscd and vpcd. Baseline, measured in the same run:
// pcscd's own detection (connection to the PC/SC card-inserted event, which includes its 400 ms poll), and a
// bare APDU round trip through the `smartcard` package.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Context, SCARD_PROTOCOL_T0, SCARD_PROTOCOL_T1, SCARD_SHARE_SHARED } from 'smartcard';
import { createNationalIdCard } from '../cards/national-id-card.js';
import { startPcscd, waitUntilNoCard } from '../support/pcsc/pcsc-test-env.js';
import { PcscWatcher } from '../../src/station/tokens/pcsc/pcsc-watcher.js';
import { createPcscTokenSource } from '../../src/station/tokens/pcsc/pcsc-token-source.js';
import { CardChannel } from '../../src/station/tokens/pcsc/card-channel.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';

const INSERTIONS = 20;
const median = (values: number[]): number => medianAndSpread(values).median;
const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 3 : 1)} ms`;

const daemon = await startPcscd();
const card = await createNationalIdCard({ algorithm: 'RSA-2048' });

try {
  // Baseline 1: connection to pcscd's card-inserted event.
  const watcher = new PcscWatcher();
  let detected: (() => void) | undefined;
  watcher.on((event) => {
    if (event.type === 'card-inserted') detected?.();
  });
  watcher.start();
  const detection: number[] = [];
  for (let i = 0; i < INSERTIONS; i++) {
    const seen = new Promise<void>((resolve) => (detected = resolve));
    const start = performance.now();
    await card.vpcd.insert();
    await seen;
    detection.push(performance.now() - start);
    await card.vpcd.remove();
    await waitUntilNoCard();
    await sleep(Math.random() * 400); // spread the insertions over pcscd's poll phase
  }
  // Baseline 2: a bare APDU round trip (SELECT of the applet) with the package alone.
  await card.vpcd.insert();
  await sleep(500);
  const context = new Context();
  const reader = context.listReaders()[0]!;
  const raw = await reader.connect(SCARD_SHARE_SHARED, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1);
  const select = Buffer.from('00a4040c08f053535445494401', 'hex');
  const bare: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    await raw.transmit(select);
    bare.push(performance.now() - start);
  }
  const channel = new CardChannel(raw, async () => undefined);
  for (let i = 0; i < 200; i++) await channel.transmit({ ins: 0xa4, p1: 0x04, p2: 0x0c, data: select.subarray(5) });
  const driverRoundTrip = median(channel.roundTrips);
  raw.disconnect();
  context.close();
  watcher.stop();
  await card.vpcd.remove();
  await waitUntilNoCard();

  // The station: connection to certificates listed by the token source.
  const source = createPcscTokenSource();
  await source.start();
  // A second watcher timestamps pcscd's card-inserted event, to split detection from the station's own reading.
  const clock = new PcscWatcher();
  let insertedAt = 0;
  clock.on((event) => {
    if (event.type === 'card-inserted') insertedAt = performance.now();
  });
  clock.start();
  const afterDetection: number[] = [];
  let ready: (() => void) | undefined;
  source.onChange(() => {
    if (source.tokens().length > 0) ready?.();
  });
  const toCertificates: number[] = [];
  const apdusPerInsertion: number[] = [];
  for (let i = 0; i < INSERTIONS; i++) {
    const appeared = new Promise<void>((resolve) => (ready = resolve));
    const before = card.vpcd.received.length;
    const start = performance.now();
    await card.vpcd.insert();
    await appeared;
    const certificates = await source.tokens()[0]!.listCertificates();
    const end = performance.now();
    toCertificates.push(end - start);
    if (insertedAt > start) afterDetection.push(end - insertedAt);
    if (certificates.length !== 2) throw new Error('certificates missing');
    apdusPerInsertion.push(card.vpcd.received.length - before);
    ready = undefined;
    await card.vpcd.remove();
    await waitUntilNoCard();
    await sleep(Math.random() * 400);
  }
  await source.stop();
  clock.stop();

  const station = median(toCertificates);
  const baseline = median(detection);
  console.log(`insertions: ${INSERTIONS}, RSA-2048 eID card, ${median(apdusPerInsertion)} APDUs to read it`);
  console.log(`baseline  pcscd detection (connect -> card-inserted): median ${fmt(baseline)}, min ${fmt(Math.min(...detection))}, max ${fmt(Math.max(...detection))}`);
  console.log(`station   connect -> certificates from the API:       median ${fmt(station)}, min ${fmt(Math.min(...toCertificates))}, max ${fmt(Math.max(...toCertificates))}`);
  console.log(`station   card-inserted event -> certificates (reading the card): median ${fmt(median(afterDetection))} over ${afterDetection.length}`);
  console.log(`ratio station/baseline: ${(station / baseline).toFixed(3)}; target median < 600 ms: ${station < 600 ? 'met' : 'MISSED'}`);
  console.log(`APDU round trip: bare smartcard transmit median ${fmt(median(bare))}; station CardChannel median ${fmt(driverRoundTrip)} (ratio ${(driverRoundTrip / median(bare)).toFixed(2)})`);
} finally {
  await card.vpcd.remove();
  await daemon.stop();
}
