// npm run bench startup: time from spawn to the `listening` line of `signing-station serve` (the built CLI, as
// a user runs it), median of N starts, against a bare `node -e ''` measured the same way in the same run; and the
// idle station's RSS a moment after it started. Targets: at most 3x bare node; at most 60 MB.
// Starts alternate with bare runs so that the shared machine's load hits both sides alike; the CPU time each
// side used (Linux /proc, 10 ms ticks) is printed too, as it moves less than wall time on a loaded machine.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cliPath } from '../support/station/run-cli.js';

const RUNS = Number(process.env.STARTUP_BENCH_RUNS ?? 15);
const IDLE_MS = 2000;
const TARGET_RATIO = 3;
const TARGET_RSS_MB = 60;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

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

/** Spawns the station, times the `listening` line, optionally waits idle and reads its RSS, then stops it. */
async function station(dataDir: string, measureRss: boolean): Promise<{ ms: number; cpu: number; rss?: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const ms = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => (line.startsWith('listening ') ? resolve(performance.now() - started) : reject(new Error(line))));
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  const cpu = await cpuMs(child.pid!, 'own');
  let rss: number | undefined;
  if (measureRss) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    rss = await rssMb(child.pid!);
  }
  child.kill('SIGTERM');
  await exited;
  return { ms, cpu, ...(rss === undefined ? {} : { rss }) };
}

const dataDir = await mkdtemp(join(tmpdir(), 'startup-bench-'));
try {
  await station(join(dataDir, 'data'), false); // first start creates the store, keys and TSA certificate
  const bare: { ms: number; cpu: number }[] = [];
  const starts: { ms: number; cpu: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    bare.push(await bareNode());
    starts.push(await station(join(dataDir, 'data'), false));
  }
  const { rss } = await station(join(dataDir, 'data'), true);
  const [bareMs, startMs] = [median(bare.map((b) => b.ms)), median(starts.map((s) => s.ms))];
  const [bareCpu, startCpu] = [median(bare.map((b) => b.cpu)), median(starts.map((s) => s.cpu))];
  console.log(`bare node -e '': median ${bareMs.toFixed(1)} ms, CPU ${bareCpu} ms (${RUNS} runs)`);
  console.log(`signing-station serve, spawn to listening: median ${startMs.toFixed(1)} ms = ${(startMs / bareMs).toFixed(2)}x bare node (target <= ${TARGET_RATIO}x); CPU ${startCpu} ms = ${(startCpu / bareCpu).toFixed(2)}x`);
  console.log(`idle RSS ${IDLE_MS / 1000} s after start: ${rss!.toFixed(1)} MB = ${(rss! / TARGET_RSS_MB).toFixed(2)}x the ${TARGET_RSS_MB} MB target`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
