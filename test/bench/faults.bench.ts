// npm run bench faults: the trials of a station under faults, each a part in test/support/bench/faults/ that
// returns its figures and whether what must hold held (FaultsBenchPart). FAULTS_BENCH_PARTS=name,... runs some;
// FAULTS_BENCH_ROUNDS sets the rounds of the concurrent-start loop (20).
import { concurrentStartPart } from '../support/bench/faults/concurrent-start-part.js';
import type { FaultsBenchPart } from '../support/bench/faults/faults-bench-part.js';
import { largeBodiesPart } from '../support/bench/faults/large-bodies-part.js';
import { sigtermDrainPart } from '../support/bench/faults/sigterm-drain-part.js';

const PARTS: Record<string, FaultsBenchPart> = {
  'concurrent-start': concurrentStartPart,
  'sigterm-drain': sigtermDrainPart,
  'large-bodies': largeBodiesPart,
};

const wanted = process.env.FAULTS_BENCH_PARTS?.split(',') ?? Object.keys(PARTS);
let failed = false;
for (const key of wanted) {
  const part = PARTS[key];
  if (!part) throw new Error(`faults bench: no part ${key} (parts: ${Object.keys(PARTS).join(', ')})`);
  console.log(`-- ${part.name}`);
  const { lines, held } = await part.run();
  for (const line of lines) console.log(line);
  failed ||= !held;
}
process.exitCode = failed ? 1 : 0;
