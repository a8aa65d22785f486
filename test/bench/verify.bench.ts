// npm run bench verify: what verification costs, each a part in test/support/bench/verify/ that measures, prints
// its figures against its targets and says whether they held (VerifyBenchPart). VERIFY_BENCH_PARTS=name,... runs
// some. Parts for other costs of verifying (loading trusted lists, ...) are added to PARTS.
import { largePdfPart } from '../support/bench/verify/large-pdf-part.js';
import { trustedListsPart } from '../support/bench/verify/trusted-lists-part.js';
import type { VerifyBenchPart } from '../support/bench/verify/verify-bench-part.js';

const PARTS: Record<string, VerifyBenchPart> = {
  'large-pdf': largePdfPart,
  'trusted-lists': trustedListsPart,
};

const wanted = process.env.VERIFY_BENCH_PARTS?.split(',') ?? Object.keys(PARTS);
let failed = false;
for (const key of wanted) {
  const part = PARTS[key];
  if (!part) throw new Error(`verify bench: no part ${key} (parts: ${Object.keys(PARTS).join(', ')})`);
  console.log(`-- ${part.name}`);
  const { lines, held } = await part.run();
  for (const line of lines) console.log(line);
  failed ||= !held;
}
process.exitCode = failed ? 1 : 0;
