// The Node code that the CLI runs, bundled by esbuild into out/cli/ as ES modules (one file per lazily loaded part:
// resolving and reading a thousand modules was most of a start; a part loaded by import() on first use shares the
// chunks, and their module instances, with the rest). Run by scripts/build.js; uses esbuild's API.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';
import { NODE_BUNDLE_OPTIONS } from './node-bundle-options.js';

const OUT_DIR = 'out/cli';
// Bundled CommonJS packages that require() a module left outside the bundle need a real require in an ES module.
const ESM_REQUIRE = { js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);" };

const { metafile } = await build({
  ...NODE_BUNDLE_OPTIONS,
  entryPoints: ['src/cli/main.ts'],
  format: 'esm',
  splitting: true,
  outdir: OUT_DIR,
  chunkNames: 'chunks/[name]-[hash]',
  banner: ESM_REQUIRE,
  // Which sources went into which file, for test/cli/start-graph.test.ts (minified, the files no longer name them).
  metafile: true,
});
writeFileSync(`${OUT_DIR}/package.json`, '{ "type": "module" }\n');
writeFileSync('out/cli-meta.json', JSON.stringify(metafile));

// The launcher that bin/signing-station.js loads first: it turns the compile cache on before any file above loads.
await build({ ...NODE_BUNDLE_OPTIONS, entryPoints: ['src/cli/launch.ts'], format: 'esm', outfile: `${OUT_DIR}/launch.js` });
