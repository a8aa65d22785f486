// npm run bench client-size: the browser client's whole IIFE (every module) gzipped, against the widely used
// client 2.140.0 from its npm package (baseline, measured in the same run). Target: ours <= 15 KB gzip. Builds the
// client first so the figure is the current source's.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { gzipSync, constants } from 'node:zlib';

const LIMIT = 15 * 1024;
const build = spawnSync('node', ['scripts/build-client.js'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) process.exit(1);

const gzipped = (path: string): { raw: number; gzip: number } => {
  const body = readFileSync(path);
  return { raw: body.length, gzip: gzipSync(body, { level: constants.Z_BEST_COMPRESSION }).length };
};
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

const ours = gzipped('out/client/service-browser-client.js');
const published = gzipped(createRequire(import.meta.url).resolve('@eid-easy/eideasy-browser-client'));
console.log(`ours: service-browser-client.js ${kb(ours.raw)} minified, ${kb(ours.gzip)} gzip (every module)`);
console.log(`baseline: @eid-easy/eideasy-browser-client 2.140.0 ${kb(published.raw)} minified, ${kb(published.gzip)} gzip`);
console.log(`ratio: ours / baseline = ${((ours.gzip / published.gzip) * 100).toFixed(1)}% gzip (${(published.gzip / ours.gzip).toFixed(1)}x smaller); limit ${kb(LIMIT)} ${ours.gzip <= LIMIT ? 'OK' : 'EXCEEDED'}`);
process.exit(ours.gzip <= LIMIT ? 0 : 1);
