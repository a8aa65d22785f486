// npm run bench [name...]: runs test/bench/<name>.bench.ts (all when no name is given), each in the test
// environment (private loopback, pcscd namespace, unlocked keyring). Every benchmark prints its own baseline,
// measured in the same run, and the ratio against it.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const dir = new URL('../test/bench/', import.meta.url);
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/\.bench\.ts$/, '')))
  .sort();
if (files.length === 0) {
  console.error(`bench: nothing matches ${wanted.join(', ')}`);
  process.exit(1);
}
let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const run = spawnSync('bash', ['scripts/test-env.sh', 'npx', 'tsx', `test/bench/${file}`], { stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
