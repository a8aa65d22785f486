import { setFlagsFromString } from 'node:v8';
import { codeCacheDir } from './code-cache/code-cache-dir.js';
import { installCodeCache } from './code-cache/install-code-cache.js';

interface CliMain {
  main(argv: string[]): Promise<number>;
}

/** Serve listens within a fraction of a second and may then run for days: its start is over by then. */
const START_MS = 2000;

/**
 * Runs the built CLI (bin/signing-station.js calls this from out/cli/launch.js): the files of `codeDir` compile with
 * the code cache of earlier runs of the same command, written once the start is over and at exit.
 *
 * Serve starts without V8's optimizing compiler. What runs hot during its start (module loading, path handling,
 * schema and route construction) runs once; optimizing it paid nothing back and kept 3.7 MB of the compiler's own
 * code resident in an idle station (startup bench, A/B). The compiler is back once the start is over, for the
 * request paths. Flags are part of what V8 checks before it takes a code cache, so the start's cache is written
 * before the flag changes back: each file's cache carries the flags it is compiled under at the next start too.
 */
export function launch(argv: string[], { codeDir, loadMain }: { codeDir: string; loadMain: () => CliMain }): void {
  const command = argv[2] !== undefined && /^[a-z]+$/.test(argv[2]) ? argv[2] : 'other';
  const startWithoutOptimizer = command === 'serve' && !process.execArgv.some((flag) => /^--(no-)?(opt|turbofan)$/.test(flag));
  if (startWithoutOptimizer) setFlagsFromString('--no-turbofan');
  const cacheDir = codeCacheDir(command);
  const codeCache = cacheDir ? installCodeCache({ codeDir, cacheDir }) : undefined;
  setTimeout(() => {
    codeCache?.save();
    if (startWithoutOptimizer) setFlagsFromString('--turbofan');
  }, START_MS).unref();
  process.once('exit', () => codeCache?.save());
  void loadMain()
    .main(argv)
    .then((exitCode) => process.exit(exitCode));
}
