import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { startServe } from '../../station/run-cli.js';

/** A `signing-station serve` process on a free port, with its address and its memory as the kernel counts it. */
export interface ServeProcess {
  baseUrl: string;
  port: number;
  /** Resident memory now (VmRSS), in MB. */
  rssMb(): Promise<number>;
  /** The most resident memory it has had (VmHWM), in MB. */
  peakRssMb(): Promise<number>;
  /** Sends `signal` and resolves with the milliseconds until the process exited, and its exit code. */
  stop(signal?: NodeJS.Signals): Promise<{ exitMs: number; code: number | null }>;
}

export async function startServeProcess(dataDir: string): Promise<ServeProcess> {
  const serve = await startServe(['--port', '0', '--data-dir', dataDir]);
  const baseUrl = serve.firstLine.replace(/^listening /, '');
  const status = async (field: string): Promise<number> => {
    const text = await readFile(`/proc/${serve.child.pid}/status`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)![1]) / 1024;
  };
  return {
    baseUrl,
    port: Number(new URL(baseUrl).port),
    rssMb: () => status('VmRSS'),
    peakRssMb: () => status('VmHWM'),
    stop: async (signal = 'SIGTERM') => {
      const started = performance.now();
      const exited = once(serve.child, 'exit') as Promise<[number | null]>;
      serve.child.kill(signal);
      const [code] = await exited;
      return { exitMs: performance.now() - started, code };
    },
  };
}
