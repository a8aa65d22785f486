import { mkdirSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { isPrivateDirectory } from './is-private-directory.js';

/** The runtime's compile cache: Node 22.1 and later; flushing it before exit, Node 22.10 and later. */
const { enableCompileCache, flushCompileCache } = nodeModule as {
  enableCompileCache?: (directory: string) => unknown;
  flushCompileCache?: () => void;
};

/**
 * Turns on the runtime's compile cache (V8 bytecode of each module, kept between runs) in `dir`, created for this
 * user only, before the CLI's modules load. Returns how to write what this run compiled so far, for a process that
 * may never exit normally (serve). Does nothing on a runtime without one (Node 20) or when `dir` is not private:
 * the files are then compiled from source, as on a first run.
 */
export function enablePrivateCompileCache(dir: string): { flush: () => void } | undefined {
  if (!enableCompileCache) return undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined;
  }
  if (!isPrivateDirectory(dir)) return undefined;
  enableCompileCache(dir);
  return { flush: () => flushCompileCache?.() };
}
