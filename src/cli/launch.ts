import { setFlagsFromString } from 'node:v8';
import { compileCacheDir } from './compile-cache/compile-cache-dir.js';
import { enablePrivateCompileCache } from './compile-cache/enable-private-compile-cache.js';

interface CliMain {
  main(argv: string[]): Promise<number>;
}

/** Serve listens within a fraction of a second and may then run for days: its start is over by then. */
const START_MS = 2000;

/**
 * V8 settings for serve's start, each with the value it goes back to once the start is over (V8's default):
 * - no optimizing compiler: what runs hot during the start (module loading, schema and route construction) runs
 *   once, and optimizing it pays nothing back while keeping the compiler's own code resident;
 * - a young generation that does not grow: the start's allocations mostly live on, and a grown young generation
 *   stays committed until V8's memory reducer runs.
 * Measured with the startup bench (docs/performance.md#start-up); the request paths get V8's defaults.
 */
const START_FLAGS = [
  { names: ['turbofan', 'opt'], start: '--no-turbofan', after: '--turbofan' },
  { names: ['semi-space-growth-factor'], start: '--semi-space-growth-factor=1', after: '--semi-space-growth-factor=2' },
];

/**
 * Runs the built CLI (bin/signing-station.js calls this from out/cli/launch.js): the runtime's compile cache is
 * turned on before `loadMain` loads the CLI's modules. Serve writes the cache once its start is over (it may be
 * stopped by a signal, and never exit normally); other commands write it at exit.
 *
 * V8 takes a cache only under the flags it was made with, so serve's start flags change back after that write:
 * the next start compiles under the same flags and takes it.
 */
export function launch(argv: string[], { loadMain }: { loadMain: () => Promise<CliMain> }): void {
  const serve = argv[2] === 'serve';
  // Not over what the user gave node on its command line.
  const given = process.execArgv.map((flag) => flag.replace(/^--(no-)?/, '').split('=')[0]);
  const startFlags = serve ? START_FLAGS.filter(({ names }) => !names.some((name) => given.includes(name))) : [];
  for (const { start } of startFlags) setFlagsFromString(start);
  const compileCache = enablePrivateCompileCache(compileCacheDir());
  if (serve) {
    setTimeout(() => {
      compileCache?.flush();
      for (const { after } of startFlags) setFlagsFromString(after);
    }, START_MS).unref();
  }
  void loadMain()
    .then(({ main }) => main(argv))
    .then((exitCode) => process.exit(exitCode));
}
