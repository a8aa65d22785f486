import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE_OPTIONS } from '../../../scripts/node-bundle-options.js';

const OUT_DIR = fileURLToPath(new URL('../../../out/bench/', import.meta.url));

/**
 * A benchmark's station process as one esbuild bundle with the CLI's options (scripts/node-bundle-options.js): the
 * figures are those of the code users run. Run through tsx instead, every function expression pays tsx's
 * name-keeping helper (a defineProperty per closure made), which the station's request paths make several of per
 * request. Written under out/bench/ so that the packages left outside the bundle resolve from node_modules.
 */
export async function bundleBenchServer(entry: URL): Promise<string> {
  const outfile = `${OUT_DIR}${fileURLToPath(entry).split('/').pop()!.replace(/\.ts$/, '.mjs')}`;
  await build({
    ...NODE_BUNDLE_OPTIONS,
    entryPoints: [fileURLToPath(entry)],
    outfile,
    format: 'esm',
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
  });
  return outfile;
}
