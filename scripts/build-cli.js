// The Node code that the CLI runs, bundled by esbuild into out/cli/ (one file per lazily loaded part: resolving
// and reading a thousand modules was most of a start). Run by scripts/build.js; uses esbuild's API for its plugin.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { MODULE_EXTERNALS, NATIVE_EXTERNALS } from './bundle-externals.js';
import { requireExternals } from './require-externals.js';

// CommonJS dependencies inside an ES module bundle call require(): give them Node's, from the bundle's place.
const REQUIRE_SHIM = "import { createRequire as __signingStationRequire } from 'node:module'; const require = __signingStationRequire(import.meta.url);";

const { metafile } = await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  outdir: 'out/cli',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  // Whitespace and syntax only: 0.4 MB less of serve's chunk to parse and 2.5 MB less idle RSS (startup bench,
  // A/B of 15 starts); identifiers stay, so stack traces keep their function names.
  minifyWhitespace: true,
  minifySyntax: true,
  // Which sources went into which file, for test/cli/start-graph.test.ts (minified, the files no longer name them).
  metafile: true,
  banner: { js: REQUIRE_SHIM },
  // The CommonJS builds of the @peculiar packages require('tslib'), which esbuild would resolve to tslib's ES
  // module (the `module` condition) and copy into a fresh CommonJS object at each of ~140 requires: 25 ms of a
  // start. Its CommonJS file is evaluated once.
  alias: { tslib: 'tslib/tslib.js' },
  external: [
    ...MODULE_EXTERNALS,
    // Fastify's JSON schema compilers (ajv, fast-json-stringify): the station gives Fastify its own compiler
    // factories (create-http-server.ts), so Fastify never requires these; left out, their 600 KB are not
    // parsed with serve's chunk. CLI only: in the Electron main's bundle they sit in CommonJS wrappers that are
    // never called (so never evaluated); leaving them out of it too was not measured.
    '@fastify/ajv-compiler',
    '@fastify/fast-json-stringify-compiler',
  ],
  plugins: [requireExternals(NATIVE_EXTERNALS)],
});
writeFileSync('out/cli-meta.json', JSON.stringify(metafile));
