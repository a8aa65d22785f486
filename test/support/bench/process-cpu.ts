import { readFileSync } from 'node:fs';

export interface ProcessCpu extends NodeJS.CpuUsage {
  /** CPU time of the main thread (the event loop) so far, µs; undefined where /proc is not there (not Linux). */
  mainThread: number | undefined;
}

/** /proc reports thread times in USER_HZ ticks, which Linux fixes at 100 per second for every architecture. */
const MICROSECONDS_PER_TICK = 10_000;

/**
 * A bench server's CPU time so far: the process's (process.cpuUsage) and its main thread's, so a bench can split
 * a request's CPU between the event loop and the threads beside it (the thread pool's signatures). The split is
 * steadier than the process's figure on a machine whose speed moves, and says which side a change moved.
 */
export function processCpu(): ProcessCpu {
  return { ...process.cpuUsage(), mainThread: mainThreadCpu() };
}

function mainThreadCpu(): number | undefined {
  try {
    // The fields after the command name (which may hold spaces, hence the split on ") "): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MICROSECONDS_PER_TICK;
  } catch {
    return undefined;
  }
}
