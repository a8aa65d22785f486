import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

export interface TimedRunProfiler {
  /**
   * At an edge of a timed run (a "cpu" message): starts the profiler and then calls `measure`, or calls `measure`
   * and then stops the profiler and writes the profile (over any earlier one), so that neither the start nor the
   * writing of the profile counts in the run's CPU time.
   */
  atRunEdge(measure: () => void): Promise<void>;
}

/**
 * A CPU profile of a bench server's timed runs only, not of its start or of the preparation: the bench asks for
 * the server's CPU time before and after each timed run, and those two moments start and stop the profiler. With
 * no directory it does nothing; a directory that does not exist yet is created. The file is summarised by
 * cpu-profile-summary.ts in the bench process, which knows how many operations the run made.
 */
export function timedRunProfiler(dir: string | undefined, fileName: string): TimedRunProfiler {
  let session: Session | undefined;
  return {
    async atRunEdge(measure) {
      if (!dir) return measure();
      if (!session) {
        session = new Session();
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.start');
        return measure();
      }
      measure();
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      session = undefined;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, fileName), JSON.stringify(profile));
    },
  };
}
