// Token endpoint throughput (authorization_code + private_key_jwt, RS256 ID token) against the raw RSA-2048 sign
// rate of this machine, both measured in this run. Target: at least 20% of the raw sign rate. Three rounds, each
// with a fresh station process, its own codes and its own baseline (taken before and after the timed run); the
// medians and their spread are what counts.
//
// The target compares requests per second with raw signatures per second (one thread), both wall-clock. The
// station also spends thread-pool time (its RSA work runs there), so its CPU time over the timed run is measured
// in its own process and reported as an efficiency figure beside the ratio: per CPU-second actually used.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { keepAliveLoad } from '../support/station/keep-alive-load.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';
import { rawSignRateAround } from '../support/bench/raw-sign-rate.js';
import { startBenchServer } from '../support/bench/bench-server.js';
import { cpuProfileSummary } from '../support/bench/cpu-profile-summary.js';

const CODES = Number(process.env.BENCH_CODES ?? 3000);
/** Exchanges before the timed run, so the JIT has warmed up the whole path. */
const WARM_UP = Math.floor(CODES / 5);
/**
 * Requests in flight, as for the TSA benchmark. Each exchange waits for two durable commits (the assertion's jti,
 * then the code's use); the other requests in flight use the CPU meanwhile. BENCH_CONCURRENCY=8 measures fewer.
 */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TARGET = 0.2;
const ROUNDS = 3;
/** OIDC_BENCH_PROFILE=<dir>: the station writes a CPU profile of the last round's timed run there, summarised at the end. */
const PROFILE_DIR = process.env.OIDC_BENCH_PROFILE || undefined;

interface Work {
  work: Array<{ code: string; assertion: string }>;
  tokenEndpoint: string;
  redirectUri: string;
  clientId: string;
  assertionType: string;
}

/** One keep-alive connection exchanging codes until `next` runs dry; a success is a 200 carrying an id_token. */
async function loadConnection(url: URL, next: () => string | undefined): Promise<number> {
  const message = (body: string): string =>
    `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const { failures } = await keepAliveLoad(
    url,
    () => {
      const body = next();
      return body === undefined ? undefined : message(body);
    },
    ({ headers, body }) => headers.startsWith('HTTP/1.1 200') && typeof (JSON.parse(body.toString('utf8')) as { id_token?: unknown }).id_token === 'string',
  );
  return failures;
}

async function exchange(setup: Work, batch: Work['work']): Promise<number> {
  const url = new URL(setup.tokenEndpoint);
  let index = 0;
  const next = (): string | undefined => {
    const item = batch[index++];
    if (!item) return undefined;
    return new URLSearchParams({ grant_type: 'authorization_code', code: item.code, redirect_uri: setup.redirectUri, client_id: setup.clientId, client_assertion_type: setup.assertionType, client_assertion: item.assertion }).toString();
  };
  const failures = await Promise.all(Array.from({ length: CONCURRENCY }, () => loadConnection(url, next)));
  return failures.reduce((sum, n) => sum + n, 0);
}

interface Round {
  tokenRate: number;
  cpuPerExchangeMs: number;
  wallRatio: number;
  cpuRatio: number;
  failures: number;
}

/** One station process: codes prepared through the login pages, a warm-up, then the timed run between two baselines. */
async function round(number: number): Promise<Round> {
  const server = await startBenchServer(new URL('../support/oidc/oidc-bench-server.ts', import.meta.url), {
    args: [String(CODES)],
    // A profile of the last round only (the server writes it over any earlier one).
    env: { ...process.env, OIDC_BENCH_PROFILE: number === ROUNDS && PROFILE_DIR ? PROFILE_DIR : '' },
  });
  try {
    console.log(`round ${number}: preparing ${CODES} authorization codes through the login pages…`);
    const setup = await server.ask<Work>(undefined, 'ready');
    const warmUpFailures = await exchange(setup, setup.work.slice(0, WARM_UP));
    const timed = setup.work.slice(WARM_UP);
    const timedRun = async () => {
      const cpuBefore = await server.ask<NodeJS.CpuUsage>('cpu', 'cpu');
      const loadCpuBefore = process.cpuUsage();
      const start = performance.now();
      const failures = await exchange(setup, timed);
      const seconds = (performance.now() - start) / 1000;
      const loadCpu = process.cpuUsage(loadCpuBefore);
      const cpuAfter = await server.ask<NodeJS.CpuUsage>('cpu', 'cpu');
      return { failures, seconds, loadCpu, user: (cpuAfter.user - cpuBefore.user) / 1e6, system: (cpuAfter.system - cpuBefore.system) / 1e6 };
    };
    const { result: run, before, after, mean: baseline } = await rawSignRateAround(timedRun);
    const { seconds, loadCpu, user: userSeconds, system: systemSeconds } = run;
    const cpuSeconds = userSeconds + systemSeconds;
    const failures = warmUpFailures + run.failures;
    const tokenRate = timed.length / seconds;
    const result: Round = {
      tokenRate,
      cpuPerExchangeMs: (cpuSeconds / timed.length) * 1000,
      wallRatio: tokenRate / baseline.perWallSecond,
      cpuRatio: timed.length / cpuSeconds / baseline.perCpuSecond,
      failures,
    };
    console.log(`round ${number}: ${timed.length} exchanges (after ${WARM_UP} warm-up) in ${seconds.toFixed(2)} s = ${tokenRate.toFixed(0)}/s wall (concurrency ${CONCURRENCY}, ${failures} failed)`);
    console.log(`round ${number}: station process used ${cpuSeconds.toFixed(2)} CPU-s (user ${userSeconds.toFixed(2)}, system ${systemSeconds.toFixed(2)}; ${(cpuSeconds / seconds).toFixed(2)} cores) = ${result.cpuPerExchangeMs.toFixed(2)} ms CPU per exchange; load generator ${((loadCpu.user + loadCpu.system) / 1e6 / seconds).toFixed(2)} cores on the same ${availableParallelism()}`);
    console.log(`round ${number}: raw RSA-2048 sign = ${baseline.perWallSecond.toFixed(0)}/s wall (${before.perWallSecond.toFixed(0)} before, ${after.perWallSecond.toFixed(0)} after), ${baseline.perCpuSecond.toFixed(0)}/s per CPU-second → ${(result.wallRatio * 100).toFixed(1)} % (efficiency ${(result.cpuRatio * 100).toFixed(1)} %)`);
    return result;
  } finally {
    await server.stop();
  }
}

const rounds: Round[] = [];
for (let number = 1; number <= ROUNDS; number++) rounds.push(await round(number));
const summary = (pick: (r: Round) => number) => medianAndSpread(rounds.map(pick));
const percent = (value: number): string => `${(value * 100).toFixed(1)} %`;
const wallRatio = summary((r) => r.wallRatio);
console.log(`token endpoint: exchanges/s ${summary((r) => r.tokenRate).describe()}; CPU per exchange ${summary((r) => r.cpuPerExchangeMs).describe((v) => `${v.toFixed(2)} ms`)}`);
console.log(`ratio: ${wallRatio.describe(percent)} of the raw sign rate, requests/s against signatures/s (target >= ${percent(TARGET)}) ${wallRatio.median >= TARGET ? 'OK' : 'BELOW TARGET'}`);
console.log(`efficiency: ${summary((r) => r.cpuRatio).describe(percent)} of the raw sign rate per CPU-second (event loop + thread pool against one signing thread)`);
if (PROFILE_DIR) console.log(cpuProfileSummary(join(PROFILE_DIR, 'oidc-token.cpuprofile'), CODES - WARM_UP, 'exchange'));
if (rounds.some((r) => r.failures > 0) || wallRatio.median < TARGET) process.exitCode = 1;
