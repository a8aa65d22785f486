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
import { NODE_BUNDLE_OPTIONS } from './node-bundle-options.js';

const OUT_DIR = 'out/cli';

const { metafile, outputFiles } = await build({
  ...NODE_BUNDLE_OPTIONS,
  entryPoints: ['src/cli/main.ts'],
  format: 'esm',
  splitting: true,
  outdir: OUT_DIR,
  chunkNames: 'chunks/[name]-[hash]',
  write: false,
  // Which sources went into which file, for test/cli/start-graph.test.ts (minified, the files no longer name them).
  metafile: true,
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
    minifyWhitespace: true,
    minifySyntax: true,
  });
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, code);
}
writeFileSync(`${OUT_DIR}/package.json`, '{ "type": "commonjs" }\n');
writeFileSync('out/cli-meta.json', JSON.stringify(metafile));

// The launcher that bin/signing-station.js requires first: it installs the code cache before any file above loads.
await build({ ...NODE_BUNDLE_OPTIONS, entryPoints: ['src/cli/launch.ts'], format: 'cjs', outfile: `${OUT_DIR}/launch.js` });
