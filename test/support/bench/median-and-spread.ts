export interface RunSummary {
  median: number;
  min: number;
  max: number;
  /** "median 412 (spread 398–431, 4.6 %)", with `format` applied to each figure. */
  describe(format?: (value: number) => string): string;
}

/**
 * The median of a benchmark's repeated runs and their spread (lowest to highest, and that range as a share of the
 * median): one run on a shared machine is not a figure, three with their spread say how far it holds.
 */
export function medianAndSpread(values: readonly number[]): RunSummary {
  if (values.length === 0) throw new TypeError('medianAndSpread needs at least one value');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const min = sorted[0]!;
  const max = sorted.at(-1)!;
  return {
    median,
    min,
    max,
    describe: (format = (value) => value.toFixed(0)) =>
      `median ${format(median)} (spread ${format(min)}–${format(max)}, ${median === 0 ? '0' : ((100 * (max - min)) / Math.abs(median)).toFixed(1)} %)`,
  };
}
