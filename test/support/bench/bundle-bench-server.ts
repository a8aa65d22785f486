import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { MODULE_EXTERNALS, NATIVE_EXTERNALS } from '../../../scripts/bundle-externals.js';

const OUT_DIR = fileURLToPath(new URL('../../../out/bench/', import.meta.url));

/**
 * A benchmark's station process as one esbuild bundle, built like the CLI's (scripts/build-cli.js): the figures are
 * those of the code users run. Run through tsx instead, every function expression pays tsx's name-keeping helper
 * (a defineProperty per closure made), which the station's request paths make several of per request. Written
 * under out/bench/ so that the packages left outside the bundle resolve from the project's node_modules.
 */
export async function bundleBenchServer(entry: URL): Promise<string> {
  const outfile = `${OUT_DIR}${fileURLToPath(entry).split('/').pop()!.replace(/\.ts$/, '.mjs')}`;
  await build({
    entryPoints: [fileURLToPath(entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    minifyWhitespace: true,
    minifySyntax: true,
    alias: { tslib: 'tslib/tslib.js' },
    external: [...NATIVE_EXTERNALS, ...MODULE_EXTERNALS],
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
  });
  return outfile;
}
