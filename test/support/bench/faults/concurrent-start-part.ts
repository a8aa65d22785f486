import { medianAndSpread } from '../median-and-spread.js';
import { concurrentStartRound } from './concurrent-start.js';
import type { FaultsBenchPart } from './faults-bench-part.js';

const SIZES = [2, 5, 10];
const ROUNDS = Number(process.env.FAULTS_BENCH_ROUNDS ?? 20);

/**
 * 2, 5 and 10 stations started at once on a fresh data directory, 20 rounds each: exactly one must run each time,
 * every other must exit naming it, and a start after they all stopped must succeed. Figures: how long until all
 * of a round had listened or exited (the refused ones wait for the first to listen, to name its address).
 */
export const concurrentStartPart: FaultsBenchPart = {
  name: 'concurrent starts on a fresh data directory',
  async run() {
    const lines: string[] = [];
    let held = true;
    for (const size of SIZES) {
      const settled: number[] = [];
      let exactlyOne = 0;
      let namedIt = 0;
      let laterStarted = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const { starts, later, settledMs } = await concurrentStartRound(size);
        settled.push(settledMs);
        const running = starts.filter((start) => start.baseUrl !== undefined);
        if (running.length === 1) exactlyOne++;
        const refused = starts.filter((start) => start.baseUrl === undefined);
        if (running.length === 1 && refused.every((start) => start.exitCode !== 0 && start.stderr.includes(`at ${running[0]!.baseUrl}.`))) namedIt++;
        if (later.baseUrl !== undefined) laterStarted++;
      }
      const ok = exactlyOne === ROUNDS && namedIt === ROUNDS && laterStarted === ROUNDS;
      held &&= ok;
      lines.push(
        `${size} at once x ${ROUNDS}: exactly one ran ${exactlyOne}/${ROUNDS}, the others named it ${namedIt}/${ROUNDS}, ` +
          `the later start ran ${laterStarted}/${ROUNDS}; all settled in ${medianAndSpread(settled).describe((ms) => `${ms.toFixed(0)} ms`)}${ok ? '' : ' (FAILED)'}`,
      );
    }
    return { lines, held };
  },
};
