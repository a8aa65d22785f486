import { fork } from 'node:child_process';
import { bundleBenchServer } from './bundle-bench-server.js';

/** A bench's server process, spoken to over IPC: "cpu" and "stop" messages, answers keyed by what they carry. */
export interface BenchServer {
  /**
   * Sends `message` (if any) and resolves with the value under `key` of the first reply that has it; rejects if
   * the server exits first, so a crashed server fails the bench instead of hanging it.
   */
  ask<T>(message: 'cpu' | undefined, key: string): Promise<T>;
  stop(): Promise<void>;
}

/**
 * A server bundled as the CLI is (bundle-bench-server.ts) and started in its own process, so its CPU time is
 * measured apart from the load generator's.
 */
export async function startBenchServer(entry: URL, options: { args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<BenchServer> {
  const child = fork(await bundleBenchServer(entry), options.args ?? [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...(options.env ? { env: options.env } : {}) });
  return {
    ask: <T>(message: 'cpu' | undefined, key: string): Promise<T> =>
      new Promise((resolve, reject) => {
        const onExit = (code: number | null): void => {
          child.off('message', onMessage);
          reject(new Error(`the bench server exited (code ${code}) before answering "${key}"`));
        };
        const onMessage = (reply: Record<string, unknown>): void => {
          if (key in reply) {
            child.off('message', onMessage);
            child.off('exit', onExit);
            resolve(reply[key] as T);
          }
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
        if (message) child.send(message);
      }),
    stop: async () => {
      child.send('stop');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
