import type { FaultsBenchPart } from './faults-bench-part.js';
import { sigtermDrain } from './sigterm-drain.js';

const EXIT_WITHIN_MS = 5000;

/** SIGTERM under 64 keep-alive clients: no connection reset, every request answered (200 or 503), exit 0 within 5 s. */
export const sigtermDrainPart: FaultsBenchPart = {
  name: 'SIGTERM under 64 keep-alive clients',
  async run() {
    const figures = await sigtermDrain();
    const held = figures.resets === 0 && figures.exitCode === 0 && figures.exitMs <= EXIT_WITHIN_MS;
    return {
      held,
      lines: [
        `${figures.clients} clients: ${figures.answered} answered, ${figures.unavailable} told 503 + Connection: close, ` +
          `${figures.resets} reset; exit ${figures.exitCode} ${figures.exitMs.toFixed(0)} ms after SIGTERM${held ? '' : ' (FAILED)'}`,
      ],
    };
  },
};
