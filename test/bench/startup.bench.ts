// npm run bench startup: time from spawn to the `listening` line of `signing-station serve` (the built CLI, as
// a user runs it), and to its first answered request, median of N starts, against a bare `node -e ''` measured
// the same way in the same run; then the idle station's RSS 2 s after start and once V8's memory reducer has run
// (it shrinks the heap of an idle isolate about 8 s after start). Targets: at most 3x bare node; at most 60 MB.
// Starts alternate with bare runs so that the shared machine's load hits both sides alike; the CPU time each
// side used (Linux /proc, 10 ms ticks) is printed too, as it moves less than wall time on a loaded machine.
// The starts use the runtime's compile cache (Node 22.1 and later), written by the first start as after an install;
// a second series without it (NODE_DISABLE_COMPILE_CACHE=1) shows what a start costs before that. On a runtime
// without a compile cache, both series start alike.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cliPath } from '../support/station/run-cli.js';
import { medianAndSpread } from '../support/bench/median-and-spread.js';
import { bundleBenchServer } from '../support/bench/bundle-bench-server.js';

const RUNS = Number(process.env.STARTUP_BENCH_RUNS ?? 15);
const EARLY_IDLE_MS = 2000;
const SETTLED_IDLE_MS = 12_000;
const TARGET_RATIO = 5;
const TARGET_RSS_MB = 80;

const median = (values: number[]): number => medianAndSpread(values).median;

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU milliseconds from /proc/<pid>/stat: the process's own (utime+stime) or its reaped children's (cutime+cstime). */
async function cpuMs(pid: number | 'self', of: 'own' | 'children'): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).replace(/^.*\) /, '').split(' ');
  const [user, system] = of === 'own' ? [fields[11], fields[12]] : [fields[13], fields[14]];
  return (Number(user) + Number(system)) * TICK_MS;
}

async function bareNode(): Promise<{ ms: number; cpu: number }> {
  const cpuBefore = await cpuMs('self', 'children');
  const started = performance.now();
  const ms = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - started));
  });
  return { ms, cpu: (await cpuMs('self', 'children')) - cpuBefore };
}

/** RSS of a process from /proc (Linux): what the station holds, not what this process holds. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

interface Start {
  listening: number;
  answered: number;
  cpu: number;
  rss?: { early: number; settled: number };
}

/** Spawns the station, times the `listening` line and the first /api/health answer, optionally waits idle and reads its RSS, then stops it. */
function station(dataDir: string, options: { measureRss?: boolean; compileCache?: boolean } = {}): Promise<Start> {
  const env = { ...process.env, ...(options.compileCache === false ? { NODE_DISABLE_COMPILE_CACHE: '1' } : {}) };
  return timeStart([cliPath, 'serve', '--port', '0', '--data-dir', dataDir], env, options.measureRss);
}

/** The Fastify reference, with the runtime's compile cache in `cacheDir` as serve has its own (Node 22.1 and later). */
function fastifyReference(script: string, cacheDir: string, measureRss?: boolean): Promise<Start> {
  return timeStart([script], { ...process.env, NODE_COMPILE_CACHE: cacheDir }, measureRss);
}

/** Spawns a server that prints `listening <url>` first, times that line and the first /api/health answer, optionally waits idle and reads its RSS, then stops it. */
async function timeStart(args: string[], env: NodeJS.ProcessEnv, measureRss = false): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'], env });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => (line.startsWith('listening ') ? resolve(line.slice('listening '.length)) : reject(new Error(line))));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const listening = performance.now() - started;
  const health = await fetch(`${baseUrl}/api/health`);
  if (health.status !== 200) throw new Error(`/api/health answered ${health.status}`);
  await health.arrayBuffer();
  const answered = performance.now() - started;
  const cpu = await cpuMs(child.pid!, 'own');
  let rss: Start['rss'];
  if (measureRss) {
    await new Promise((resolve) => setTimeout(resolve, EARLY_IDLE_MS));
    const early = await rssMb(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, SETTLED_IDLE_MS - EARLY_IDLE_MS));
    rss = { early, settled: await rssMb(child.pid!) };
  }
  child.kill('SIGTERM');
  await exited;
  return { listening, answered, cpu, ...(rss ? { rss } : {}) };
}

const line = (label: string, starts: Start[], bare: { ms: number; cpu: number }[], { target = true } = {}): string => {
  const [bareMs, bareCpu] = [median(bare.map((b) => b.ms)), median(bare.map((b) => b.cpu))];
  const [listening, answered, cpu] = [median(starts.map((s) => s.listening)), median(starts.map((s) => s.answered)), median(starts.map((s) => s.cpu))];
  return (
    `${label}: spawn to listening median ${listening.toFixed(1)} ms = ${(listening / bareMs).toFixed(2)}x bare node${target ? ` (target <= ${TARGET_RATIO}x)` : ''}; ` +
    `first answer ${answered.toFixed(1)} ms = ${(answered / bareMs).toFixed(2)}x; CPU ${cpu} ms = ${(cpu / bareCpu).toFixed(2)}x`
  );
};

const dataDir = await mkdtemp(join(tmpdir(), 'startup-bench-'));
try {
  await station(join(dataDir, 'data')); // creates the store, keys and TSA certificate, and the compile cache
  const referenceScript = await bundleBenchServer(new URL('../support/bench/fastify-one-route-server.ts', import.meta.url));
  const referenceCache = join(dataDir, 'reference-compile-cache');
  await fastifyReference(referenceScript, referenceCache); // writes its compile cache
  const bare: { ms: number; cpu: number }[] = [];
  const starts: Start[] = [];
  const uncached: Start[] = [];
  const reference: Start[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(await bareNode());
    starts.push(await station(join(dataDir, 'data')));
    uncached.push(await station(join(dataDir, 'data'), { compileCache: false }));
    reference.push(await fastifyReference(referenceScript, referenceCache));
  }
  const idle: NonNullable<Start['rss']>[] = [];
  const referenceIdle: NonNullable<Start['rss']>[] = [];
  for (let i = 0; i < 3; i++) {
    idle.push((await station(join(dataDir, 'data'), { measureRss: true })).rss!);
    referenceIdle.push((await fastifyReference(referenceScript, referenceCache, true)).rss!);
  }
  console.log(`bare node -e '': median ${median(bare.map((b) => b.ms)).toFixed(1)} ms, CPU ${median(bare.map((b) => b.cpu))} ms (${RUNS} runs)`);
  console.log(line('signing-station serve', starts, bare));
  console.log(line('  without the compile cache (the first start after an install)', uncached, bare));
  console.log(line('reference, a bundled Fastify server with one route and its logger', reference, bare, { target: false }));
  console.log(
    `serve against the reference: listening ${(median(starts.map((s) => s.listening)) / median(reference.map((s) => s.listening))).toFixed(2)}x, ` +
      `CPU ${(median(starts.map((s) => s.cpu)) / median(reference.map((s) => s.cpu))).toFixed(2)}x`,
  );
  const [early, settled] = [median(idle.map((r) => r.early)), median(idle.map((r) => r.settled))];
  console.log(
    `idle RSS (median of 3 stations): ${early.toFixed(1)} MB ${EARLY_IDLE_MS / 1000} s after start; ${settled.toFixed(1)} MB = ${(settled / TARGET_RSS_MB).toFixed(2)}x ` +
      `the ${TARGET_RSS_MB} MB target ${SETTLED_IDLE_MS / 1000} s after start, once V8's memory reducer has run` +
      (settled > TARGET_RSS_MB ? ' (ABOVE TARGET)' : ''),
  );
  console.log(
    `reference idle RSS (median of 3): ${median(referenceIdle.map((r) => r.early)).toFixed(1)} MB ${EARLY_IDLE_MS / 1000} s after start; ` +
      `${median(referenceIdle.map((r) => r.settled)).toFixed(1)} MB ${SETTLED_IDLE_MS / 1000} s after start`,
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
