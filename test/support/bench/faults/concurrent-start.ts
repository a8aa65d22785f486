import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { cliPath } from '../../station/run-cli.js';

export interface StartOutcome {
  /** The `listening` address, when this start became the station. */
  baseUrl?: string;
  exitCode?: number | null;
  stderr: string;
}

export interface ConcurrentStartRound {
  starts: StartOutcome[];
  /** The start made after all of them had stopped, on the same directory. */
  later: StartOutcome;
  /** From spawning the starts to the last of them listening or exiting. */
  settledMs: number;
}

/** One `serve` on `dataDir`: resolves when it listens (still running, `stop` ends it) or when it exits. */
function serve(dataDir: string, env: NodeJS.ProcessEnv): { outcome: Promise<StartOutcome>; stop: () => Promise<void> } {
  const child = spawn(process.execPath, [cliPath, 'serve', '--port', '0', '--data-dir', dataDir], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const outcome = new Promise<StartOutcome>((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('listening ')) resolve({ baseUrl: line.slice('listening '.length), stderr });
    });
    void exited.then((exitCode) => resolve({ exitCode, stderr }));
  });
  return {
    outcome,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * `count` stations started at once on a fresh data directory, then one more once they are all stopped: the trial of
 * two desktop starts at login, and of the directory they leave behind.
 */
export async function concurrentStartRound(count: number, env: NodeJS.ProcessEnv = {}): Promise<ConcurrentStartRound> {
  const parent = await mkdtemp(join(tmpdir(), 'faults-start-'));
  const dataDir = join(parent, 'data');
  try {
    const started = performance.now();
    const servers = Array.from({ length: count }, () => serve(dataDir, env));
    const starts = await Promise.all(servers.map((server) => server.outcome));
    const settledMs = performance.now() - started;
    await Promise.all(servers.map((server) => server.stop()));
    const again = serve(dataDir, env);
    const later = await again.outcome;
    await again.stop();
    return { starts, later, settledMs };
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}
