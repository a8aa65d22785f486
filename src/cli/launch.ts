import { setFlagsFromString } from 'node:v8';
import { codeCacheDir } from './code-cache/code-cache-dir.js';
import { installCodeCache } from './code-cache/install-code-cache.js';

interface CliMain {
  main(argv: string[]): Promise<number>;
}

/** Serve listens within a fraction of a second and may then run for days: its start is over by then. */
const START_MS = 2000;

/**
 * V8 settings for serve's start, each with the value it goes back to once the start is over (V8's default):
 * - no optimizing compiler: what runs hot during the start (module loading, path handling, schema and route
 *   construction) runs once; optimizing it paid nothing back and kept the compiler's own code resident;
 * - a young generation that does not grow: the start's allocations mostly live on, and the space the young
 *   generation grew to for them stayed committed until V8's memory reducer ran, seconds later.
 * Both measured with the startup bench (docs/performance.md#start-up), at no cost to the start's time; the request
 * paths get V8's defaults.
 */
const START_FLAGS = [
  { names: ['turbofan', 'opt'], start: '--no-turbofan', after: '--turbofan' },
  { names: ['semi-space-growth-factor'], start: '--semi-space-growth-factor=1', after: '--semi-space-growth-factor=2' },
];

/**
 * Runs the built CLI (bin/signing-station.js calls this from out/cli/launch.js): the files of `codeDir` compile with
 * the code cache of earlier runs of the same command, written once the start is over and at exit.
 *
 * Flags are part of what V8 checks before it takes a code cache, so serve's start flags change back only after the
 * start's cache is written: each file's cache carries the flags it is compiled under at the next start too.
 */
export function launch(argv: string[], { codeDir, loadMain }: { codeDir: string; loadMain: () => CliMain }): void {
  const command = argv[2] !== undefined && /^[a-z]+$/.test(argv[2]) ? argv[2] : 'other';
  // Not over what the user gave node on its command line.
  const given = process.execArgv.map((flag) => flag.replace(/^--(no-)?/, '').split('=')[0]);
  const startFlags = command === 'serve' ? START_FLAGS.filter(({ names }) => !names.some((name) => given.includes(name))) : [];
  for (const { start } of startFlags) setFlagsFromString(start);
  const cacheDir = codeCacheDir(command);
  const codeCache = cacheDir ? installCodeCache({ codeDir, cacheDir }) : undefined;
  setTimeout(() => {
    codeCache?.save();
    for (const { after } of startFlags) setFlagsFromString(after);
  }, START_MS).unref();
  process.once('exit', () => codeCache?.save());
  void loadMain()
    .main(argv)
    .then((exitCode) => process.exit(exitCode));
}
