/**
 * The station's time of day: every date it records, compares or signs (validity, timestamps, expiry, audit, the
 * dates it stores) comes from here, so tests can set it. Elapsed time (timeouts, deadlines, round-trip figures)
 * is not a date and uses the monotonic `performance.now()`, which a change of the system clock cannot move.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
