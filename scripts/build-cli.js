// The Node code that the CLI runs, bundled by esbuild into out/cli/ (one file per lazily loaded part: resolving
// and reading a thousand modules was most of a start). Run by scripts/build.js; uses esbuild's API.
//
// The files are CommonJS: Node 20 can compile a CommonJS file with V8's code cache (src/cli/code-cache), not an ES
// module. esbuild splits code into shared chunks only for ES modules, so the bundle is made as ES modules first and
// each file is then turned into CommonJS on its own (imports become require, import() a promise of require): the
// chunks keep their shared module instances, and a lazily loaded part still loads on first use.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { build, transform } from 'esbuild';
import { MODULE_EXTERNALS, NATIVE_EXTERNALS } from './bundle-externals.js';

const OUT_DIR = 'out/cli';

const { metafile, outputFiles } = await build({
  entryPoints: ['src/cli/main.ts'],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  splitting: true,
  outdir: OUT_DIR,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  write: false,
  // Which sources went into which file, for test/cli/start-graph.test.ts (minified, the files no longer name them).
  metafile: true,
  // The CommonJS builds of the @peculiar packages require('tslib'), which esbuild would resolve to tslib's ES
  // module (the `module` condition) and copy into a fresh CommonJS object at each of ~140 requires: 25 ms of a
  // start. Its CommonJS file is evaluated once.
  alias: { tslib: 'tslib/tslib.js' },
  external: [...NATIVE_EXTERNALS, ...MODULE_EXTERNALS],
});

for (const file of outputFiles) {
  const { code } = await transform(file.text, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Every import() becomes `Promise.resolve().then(() => require(…))`: a chunk loaded on first use joins the same
    // CommonJS module cache as the rest (an ES import() of it would make a second copy of the chunks it shares).
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;',
    // Whitespace and syntax only: 0.4 MB less of serve's chunk to parse and 2.5 MB less idle RSS (startup bench,
    // A/B of 15 starts); identifiers stay, so stack traces keep their function names.
    minifyWhitespace: true,
    minifySyntax: true,
  });
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, code);
}
writeFileSync(`${OUT_DIR}/package.json`, '{ "type": "commonjs" }\n');
writeFileSync('out/cli-meta.json', JSON.stringify(metafile));

// The launcher that bin/signing-station.js requires first: it installs the code cache before any file above loads.
await build({
  entryPoints: ['src/cli/launch.ts'],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  outfile: `${OUT_DIR}/launch.js`,
  logLevel: 'warning',
  minifyWhitespace: true,
  minifySyntax: true,
});
