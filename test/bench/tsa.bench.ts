// npm run bench tsa: RFC 3161 responses per second over HTTP with concurrent clients, against two baselines
// measured in the same run: raw Node RSA-2048 crypto.sign (one core, KeyObject) and `openssl ts -reply` per
// request. Targets: >= 90% of the floor's requests per CPU-second (node:http alone doing the same signing), >= 20x
// openssl ts -reply; the share of the raw sign rate is printed beside. Three rounds,
// each a timed station run and a timed run of the floor (see startFloor) between two raw-sign baselines; the
// medians and their spread are what counts.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { Agent, request } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTimestampReply } from '../../src/station/tsa/timestamp-reply-reader.js';
import { createOpensslTsa, type OpensslTsa } from '../support/tsa/openssl-tsa.js';
import { openssl } from '../support/tsa/tsa-openssl.js';
import { keepAliveLoad } from '../support/station/keep-alive-load.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';
import { rawSignRateAround } from '../support/bench/raw-sign-rate.js';
import type { ProcessCpu } from '../support/bench/process-cpu.js';
import { startBenchServer, type BenchServer } from '../support/bench/bench-server.js';
import { cpuProfileSummary } from '../support/bench/cpu-profile-summary.js';

const SIGN_SECONDS = 2;
const HTTP_SECONDS = 5;
const OPENSSL_RUNS = 30;
const CONCURRENCY = Number(process.env.TSA_BENCH_CONCURRENCY ?? 16);
const ROUNDS = 3;
/** Timestamps per CPU-second against the floor's requests per CPU-second in the same round. */
const FLOOR_TARGET = 0.9;
const OPENSSL_TARGET = 20;
/**
 * TSA_BENCH_PROFILE=<dir>: the station and the floor write CPU profiles of their last timed round there, both
 * summarised at the end, so the station's event loop can be read against the floor's function by function.
 */
const PROFILE_DIR = process.env.TSA_BENCH_PROFILE || undefined;

/**
 * Not a target, an explanation: the same signatures with every core signing at once (the callback form, on the
 * thread pool, as the station signs). Each costs more CPU time than in the one-thread baseline, for two reasons
 * measured apart (figures in docs/performance.md#tsa-over-http): handing each job to the pool and taking its answer
 * costs the event loop time; and when the host is busy, two cores signing slow each other. Printed so the TSA ratio
 * can be read against it.
 */
async function parallelSignRate(): Promise<number> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const data = randomBytes(150);
  const until = performance.now() + SIGN_SECONDS * 1000;
  let count = 0;
  const cpu = process.cpuUsage();
  const worker = async (): Promise<void> => {
    while (performance.now() < until) {
      await new Promise((resolve, reject) => sign('sha256', data, privateKey, (error, signature) => (error ? reject(error) : resolve(signature))));
      count++;
    }
  };
  await Promise.all(Array.from({ length: 2 * availableParallelism() }, worker));
  const used = process.cpuUsage(cpu);
  return count / ((used.user + used.system) / 1e6);
}

async function opensslReplyRate(tsa: OpensslTsa, dir: string, query: string): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < OPENSSL_RUNS; i++) await tsa.reply(query, join(dir, `ref-${i}.tsr`));
  return OPENSSL_RUNS / ((performance.now() - start) / 1000);
}

function post(url: URL, agent: Agent, body: Buffer): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': 'application/timestamp-query', 'content-length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One keep-alive connection sending the same query until `until`; a success is a granted TimeStampResp. */
function loadConnection(url: URL, query: Buffer, until: number): Promise<{ count: number; failures: number }> {
  const head = `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/timestamp-query\r\nContent-Length: ${query.length}\r\n\r\n`;
  const message = Buffer.concat([Buffer.from(head, 'latin1'), query]);
  const granted = Buffer.from('3003020100', 'hex');
  return keepAliveLoad(
    url,
    () => (performance.now() < until ? message : undefined),
    // "HTTP/1.1 200" and, after the 4-byte outer header of the TimeStampResp, PKIStatusInfo { granted }
    ({ headers, body }) => headers.startsWith('HTTP/1.1 200') && body.subarray(4, 9).equals(granted),
  );
}

interface TimedRun {
  count: number;
  failures: number;
  /** Wall time, seconds. */
  elapsed: number;
  /** The server's CPU per request, µs. */
  user: number;
  system: number;
  /** Of that, its event loop's (main thread's), µs; undefined without /proc. */
  loop: number | undefined;
}

/** CONCURRENCY connections sending `query` for `seconds`, with the server's CPU time taken around the run. */
async function timedRun(server: BenchServer, url: URL, query: Buffer, seconds: number): Promise<TimedRun> {
  const cpuBefore = await server.ask<ProcessCpu>('cpu', 'cpu');
  const start = performance.now();
  const until = start + seconds * 1000;
  const results = await Promise.all(Array.from({ length: CONCURRENCY }, () => loadConnection(url, query, until)));
  const elapsed = (performance.now() - start) / 1000;
  const cpuAfter = await server.ask<ProcessCpu>('cpu', 'cpu');
  const count = results.reduce((n, r) => n + r.count, 0);
  const failures = results.reduce((n, r) => n + r.failures, 0);
  const loop = cpuAfter.mainThread === undefined || cpuBefore.mainThread === undefined ? undefined : (cpuAfter.mainThread - cpuBefore.mainThread) / count;
  return { count, failures, elapsed, user: (cpuAfter.user - cpuBefore.user) / count, system: (cpuAfter.system - cpuBefore.system) / count, loop };
}

/**
 * Not a target, an explanation: the floor. node:http alone, signing each request on the thread pool and answering
 * the station's own reply bytes, under the same load: the CPU per request that no station code can go below on
 * this machine at that moment (the loopback writes and reads, the HTTP parser, the thread pool's hand-offs and the
 * signature). Run in every round right after the station, so the two meet the machine in the same state.
 */
async function startFloor(replyPath: string, query: Buffer): Promise<{ server: BenchServer; url: URL }> {
  const server = await startBenchServer(new URL('../support/tsa/http-sign-floor-server.ts', import.meta.url), { args: [replyPath] });
  const url = new URL((await server.ask<{ url: string }>(undefined, 'ready')).url);
  await timedRun(server, url, query, 1);
  return { server, url };
}

interface Round {
  count: number;
  signRate: number;
  rate: number;
  cores: number;
  perCore: number;
  /** CPU per timestamp, µs. */
  user: number;
  system: number;
  failures: number;
  /** The floor's CPU per request in the same round, µs. */
  floor: number;
  floorCount: number;
  /** The event loop's share of the station's and of the floor's CPU per request, µs (Linux only). */
  loop: number | undefined;
  floorLoop: number | undefined;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'tsa-bench-'));
  const data = join(dir, 'data.bin');
  await writeFile(data, randomBytes(1 << 16));
  const queryPath = join(dir, 'q.tsq');
  if ((await openssl(['ts', '-query', '-data', data, '-sha256', '-cert', '-out', queryPath])).code !== 0) throw new Error('openssl ts -query failed');
  const query = await readFile(queryPath);

  // openssl is measured before and after the station's run and averaged: the machine's load drifts.
  const reference = await createOpensslTsa(dir);
  await reference.reply(queryPath, join(dir, 'warm.tsr'));
  const opensslBefore = await opensslReplyRate(reference, dir, queryPath);

  const station = await startBenchServer(new URL('../support/tsa/tsa-bench-server.ts', import.meta.url));
  const started = await station.ask<{ url: string; rootPem: string }>(undefined, 'ready');
  const url = new URL(started.url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

  // correctness first: a granted token, then a warm-up
  const first = await post(url, agent, query);
  if (first.status !== 200 || readTimestampReply(first.body).status !== 0) throw new Error(`the station did not grant a timestamp: HTTP ${first.status}`);
  await writeFile(join(dir, 'station.tsr'), first.body);
  const verified = await openssl(['ts', '-verify', '-queryfile', queryPath, '-in', join(dir, 'station.tsr'), '-CAfile', started.rootPem]);
  if (verified.code !== 0) throw new Error(`openssl does not verify the station's token: ${verified.stderr}`);

  await timedRun(station, url, query, 1);
  const floor = await startFloor(join(dir, 'station.tsr'), query);
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const { result, before, after, mean } = await rawSignRateAround(async () => ({
      station: await timedRun(station, url, query, HTTP_SECONDS),
      floor: await timedRun(floor.server, floor.url, query, HTTP_SECONDS),
    }));
    const { count, failures, elapsed, user, system } = result.station;
    const signRate = mean.perCpuSecond;
    const cores = ((user + system) * count) / 1e6 / elapsed;
    const floorCpu = result.floor.user + result.floor.system;
    const r: Round = {
      count,
      signRate,
      rate: count / elapsed,
      cores,
      perCore: count / elapsed / cores,
      user,
      system,
      failures: failures + result.floor.failures,
      floor: floorCpu,
      floorCount: result.floor.count,
      loop: result.station.loop,
      floorLoop: result.floor.loop,
    };
    const onLoop = (loop: number | undefined): string => (loop === undefined ? '' : `, event loop ${loop.toFixed(0)} µs`);
    rounds.push(r);
    console.log(
      `round ${round}: raw sign ${signRate.toFixed(0)}/s per CPU-second (${before.perCpuSecond.toFixed(0)} before, ${after.perCpuSecond.toFixed(0)} after; ` +
        `${mean.perWallSecond.toFixed(0)}/s wall); station ${r.rate.toFixed(0)} timestamps/s at ${cores.toFixed(2)} cores ` +
        `= ${r.perCore.toFixed(0)}/s per CPU-second (${user.toFixed(0)} µs user + ${system.toFixed(0)} µs system per timestamp${onLoop(r.loop)}), ${r.failures} failures → ${((100 * r.perCore) / signRate).toFixed(1)} %; ` +
        `floor ${floorCpu.toFixed(0)} µs per request${onLoop(r.floorLoop)} → ${((100 * 1e6) / floorCpu / signRate).toFixed(1)} %`,
    );
  }
  await floor.server.stop();
  const parallelRate = await parallelSignRate();
  const opensslAfter = await opensslReplyRate(reference, dir, queryPath);
  const opensslRate = (opensslBefore + opensslAfter) / 2;
  const summary = (pick: (r: Round) => number) => medianAndSpread(rounds.map(pick));
  const percent = (value: number): string => `${(value * 100).toFixed(1)} %`;
  const signRatio = summary((r) => r.perCore / r.signRate);
  const floorRatio = summary((r) => r.floor / (r.user + r.system));
  const opensslRatio = summary((r) => r.rate / opensslRate);
  console.log(`baseline: Node crypto.sign RSA-2048, KeyObject, one thread, per CPU-second: ${summary((r) => r.signRate).describe()}`);
  console.log(`station: timestamps/s over HTTP (${CONCURRENCY} keep-alive connections): ${summary((r) => r.rate).describe()}; cores used ${summary((r) => r.cores).describe((v) => v.toFixed(2))}`);
  console.log(`station: per CPU-second (event loop + signing thread pool): ${summary((r) => r.perCore).describe()}; CPU per timestamp ${summary((r) => r.user + r.system).describe()} µs`);
  console.log(`baseline: openssl ts -reply per request (${OPENSSL_RUNS} runs before, ${OPENSSL_RUNS} after): ${opensslBefore.toFixed(1)}/s, ${opensslAfter.toFixed(1)}/s, mean ${opensslRate.toFixed(1)}/s`);
  console.log(`explanation: raw crypto.sign on the thread pool, all ${availableParallelism()} cores signing at once: ${parallelRate.toFixed(0)}/s per CPU-second = ${percent(parallelRate / summary((r) => r.signRate).median)} of one signing thread`);
  console.log(
    `explanation: the floor, node:http alone signing each request on the thread pool and sending the same reply bytes (no station code), same load, ` +
      `run after the station in each round: ${summary((r) => 1e6 / r.floor / r.signRate).describe(percent)} of raw sign per CPU-second; ` +
      `the station costs ${summary((r) => r.user + r.system - r.floor).describe((v) => `${v.toFixed(0)} µs`)} more per timestamp than the floor in the same round`,
  );
  if (rounds.every((r) => r.loop !== undefined && r.floorLoop !== undefined)) {
    const micros = (v: number): string => `${v.toFixed(0)} µs`;
    console.log(
      `explanation: per timestamp, the station's event loop ${summary((r) => r.loop!).describe(micros)} and its other threads (the signatures) ${summary((r) => r.user + r.system - r.loop!).describe(micros)}; ` +
        `the floor's event loop ${summary((r) => r.floorLoop!).describe(micros)} and its other threads ${summary((r) => r.floor - r.floorLoop!).describe(micros)}`,
    );
  }
  console.log(`ratio: per CPU-second vs raw crypto.sign ${signRatio.describe(percent)}`);
  console.log(`ratio: per CPU-second vs the floor ${floorRatio.describe(percent)} (target >= ${percent(FLOOR_TARGET)}) ${floorRatio.median >= FLOOR_TARGET ? 'OK' : 'BELOW TARGET'}`);
  console.log(`ratio: vs openssl ts -reply per request ${opensslRatio.describe((v) => `${v.toFixed(0)}x`)} (target >= ${OPENSSL_TARGET}x) ${opensslRatio.median >= OPENSSL_TARGET ? 'OK' : 'BELOW TARGET'}`);

  await station.stop();
  if (PROFILE_DIR) {
    console.log(cpuProfileSummary(join(PROFILE_DIR, 'tsa.cpuprofile'), rounds.at(-1)!.count, 'timestamp'));
    console.log(cpuProfileSummary(join(PROFILE_DIR, 'floor.cpuprofile'), rounds.at(-1)!.floorCount, 'floor request'));
  }
  agent.destroy();
  await rm(dir, { recursive: true, force: true });
  if (rounds.some((r) => r.failures > 0) || floorRatio.median < FLOOR_TARGET || opensslRatio.median < OPENSSL_TARGET) process.exitCode = 1;
}

await main();
