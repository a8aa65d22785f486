/**
 * One trial of `npm run bench faults`. `run` does the trial and returns the lines to print (its figures, and
 * whether what must hold held); it throws when the trial cannot run at all. `held` false makes the bench exit 1.
 */
export interface FaultsBenchPart {
  name: string;
  run(): Promise<{ lines: string[]; held: boolean }>;
}
