// npm run bench startup: time from spawn to the `listening` line of `signing-station serve` (the built CLI, as
// a user runs it), median of N starts, against a bare `node -e ''` measured the same way in the same run; and the
// idle station's RSS a moment after it started. Targets: at most 3x bare node; at most 60 MB.
// Starts alternate with bare runs so that the shared machine's load hits both sides alike.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cliPath } from '../support/run-cli.js';

const RUNS = Number(process.env.STARTUP_BENCH_RUNS ?? 15);
const IDLE_MS = 2000;
const TARGET_RATIO = 3;
const TARGET_RSS_MB = 60;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function bareNode(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - started));
  });
}

/** RSS of a process from /proc (Linux): what the station holds, not what this process holds. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/** Spawns the station, times the `listening` line, optionally waits idle and reads its RSS, then stops it. */
async function station(dataDir: string, measureRss: boolean): Promise<{ ms: number; rss?: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ms = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => (line.startsWith('listening ') ? resolve(performance.now() - started) : reject(new Error(line))));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  let rss: number | undefined;
  if (measureRss) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    rss = await rssMb(child.pid!);
  }
  child.kill('SIGTERM');
  await exited;
  return { ms, ...(rss === undefined ? {} : { rss }) };
}

const dataDir = await mkdtemp(join(tmpdir(), 'startup-bench-'));
try {
  await station(join(dataDir, 'data'), false); // first start creates the store, keys and TSA certificate
  const bare: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(await bareNode());
    starts.push((await station(join(dataDir, 'data'), false)).ms);
  }
  const { rss } = await station(join(dataDir, 'data'), true);
  const ratio = median(starts) / median(bare);
  console.log(`bare node -e '': median ${median(bare).toFixed(1)} ms (${RUNS} runs)`);
  console.log(`signing-station serve, spawn to listening: median ${median(starts).toFixed(1)} ms (${RUNS} runs) = ${ratio.toFixed(2)}x bare node (target <= ${TARGET_RATIO}x)`);
  console.log(`idle RSS ${IDLE_MS / 1000} s after start: ${rss!.toFixed(1)} MB = ${(rss! / TARGET_RSS_MB).toFixed(2)}x the ${TARGET_RSS_MB} MB target`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
