import { codeCacheDir } from './code-cache/code-cache-dir.js';
import { installCodeCache } from './code-cache/install-code-cache.js';

interface CliMain {
  main(argv: string[]): Promise<number>;
}

/** Serve listens within a fraction of a second and may then run for days: its cache is written after this. */
const SAVE_AFTER_MS = 2000;

/**
 * Runs the built CLI (bin/signing-station.js calls this from out/cli/launch.js): the files of `codeDir` compile with
 * the code cache of earlier runs of the same command, written once the start is over and at exit.
 */
export function launch(argv: string[], { codeDir, loadMain }: { codeDir: string; loadMain: () => CliMain }): void {
  const command = argv[2] !== undefined && /^[a-z]+$/.test(argv[2]) ? argv[2] : 'other';
  const cacheDir = codeCacheDir(command);
  if (cacheDir) {
    const codeCache = installCodeCache({ codeDir, cacheDir });
    setTimeout(() => codeCache.save(), SAVE_AFTER_MS).unref();
    process.once('exit', () => codeCache.save());
  }
  void loadMain()
    .main(argv)
    .then((exitCode) => process.exit(exitCode));
}
