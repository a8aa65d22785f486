import type { TimedRunProfiler } from './timed-run-profiler.js';

/**
 * A bench server's side of bench-server.ts: "cpu" is answered with `{ cpu: cpu() }` (at a profiler edge when the
 * server profiles its timed runs), "stop" runs `stop` and exits.
 */
export function answerBenchMessages(options: { cpu: () => unknown; stop: () => Promise<unknown>; profiler?: TimedRunProfiler }): void {
  process.on('message', (message) => {
    if (message === 'cpu') {
      const send = (): void => void process.send?.({ cpu: options.cpu() });
      if (options.profiler) void options.profiler.atRunEdge(send);
      else send();
    }
    if (message === 'stop') void options.stop().then(() => process.exit(0));
  });
}
