/**
 * One part of `npm run bench verify` (a verification cost: a large file, loading trusted lists, ...). `run` measures
 * and returns the lines to print (its figures against its targets) and whether the targets held; it throws when
 * the part cannot run at all. `held` false makes the bench exit 1.
 */
export interface VerifyBenchPart {
  name: string;
  run(): Promise<{ lines: string[]; held: boolean }>;
}
