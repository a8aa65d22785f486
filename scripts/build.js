// npm run build: the Electron main/preload and the station UI (electron-vite), the iframe helper page's script
// (esbuild, one small IIFE), the browser client (scripts/build-client.js), then the Node code that the CLI runs, bundled by esbuild into out/cli/ (one file per
// lazily loaded part: resolving and reading a thousand modules was most of a start). Types are checked by
// `npm run typecheck` (npm test), not here: the install must not depend on the optional `smartcard` package's
// types being present. Runs on `npm install` through the `prepare` script.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { BUNDLE_EXTERNALS } from './bundle-externals.js';

// CommonJS dependencies inside an ES module bundle call require(): give them Node's, from the bundle's place.
const REQUIRE_SHIM = "import { createRequire as __signingStationRequire } from 'node:module'; const require = __signingStationRequire(import.meta.url);";

const steps = [
  ['electron-vite', ['build']],
  ['esbuild', ['src/iframe/main.ts', '--bundle', '--format=iife', '--minify', '--target=es2020', '--outfile=out/iframe/iframe-helper.js']],
  [
    'esbuild',
    [
      'src/cli/main.ts',
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--splitting',
      '--outdir=out/cli',
      '--chunk-names=chunks/[name]-[hash]',
      '--log-level=warning',
      `--banner:js=${REQUIRE_SHIM}`,
      // The CommonJS builds of the @peculiar packages require('tslib'), which esbuild would resolve to tslib's ES
      // module (the `module` condition) and copy into a fresh CommonJS object at each of ~140 requires: 25 ms of a
      // start. Its CommonJS file is evaluated once.
      '--alias:tslib=tslib/tslib.js',
      ...BUNDLE_EXTERNALS.map((name) => `--external:${name}`),
      // Fastify's JSON schema compilers (ajv, fast-json-stringify): the station gives Fastify its own compiler
      // factories (create-http-server.ts), so Fastify never requires these; left out, their 600 KB are not
      // parsed with serve's chunk. CLI only: in the Electron main's bundle they sit in CommonJS wrappers that are
      // never called (so never evaluated); leaving them out of it too was not measured.
      '--external:@fastify/ajv-compiler',
      '--external:@fastify/fast-json-stringify-compiler',
    ],
  ],
  ['node', ['scripts/build-client.js']],
];
rmSync('out/cli', { recursive: true, force: true });
for (const [command, args] of steps) {
  const started = Date.now();
  const run = spawnSync('npx', ['--no-install', command, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) {
    console.error(`build: ${command} ${args[0]} failed`);
    process.exit(run.status ?? 1);
  }
  console.log(`build: ${command} ${args[0]} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
mkdirSync('out/iframe', { recursive: true });
copyFileSync('src/iframe/iframe-helper.css', 'out/iframe/iframe-helper.css');
