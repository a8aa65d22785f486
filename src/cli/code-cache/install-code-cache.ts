import { hash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join, relative, isAbsolute } from 'node:path';
import { Script } from 'node:vm';

export interface CodeCache {
  /** Writes the code cache of each file this run compiled without one (none yet, or refused by V8), once. */
  save(): void;
}

/** The part of Node's CommonJS Module that compiles a file: internal, and the hook every compile cache uses. */
interface CompilingModule {
  exports: unknown;
  _compile(content: string, filename: string, ...rest: unknown[]): unknown;
}

type ModuleWrapper = (exports: unknown, require: NodeJS.Require, module: CompilingModule, filename: string, dirname: string) => unknown;

// The wrapper's head on a line of its own, compiled with lineOffset -1: stack traces keep each file's own lines
// and columns.
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';
const DIGEST_BYTES = 32;
const STALE_AFTER_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Compiles the CommonJS files under `codeDir` with V8's code cache from an earlier run, kept in `cacheDir`, so a
 * start deserializes the bytecode of its code instead of parsing and compiling it (a third of serve's start).
 *
 * Written here because nothing else fits: Node 20 has no compile cache of its own (`module.enableCompileCache`
 * is Node 22.1), and v8-compile-cache creates each file's cache right after compiling it, before it runs, so the
 * functions a start compiles lazily (most of them) are not in it, and keeps it in the shared temporary directory.
 * Here the cache is created by `save()` once the code has run, is keyed by the SHA-256 of the source (V8 itself
 * checks only its length), carries a digest of its own bytes (a torn or altered file is compiled from source,
 * never deserialized), and lives in a directory only this user may write: a code cache is code.
 * Any failure to read or write the cache leaves the code compiled from source, as without it.
 */
export function installCodeCache({ codeDir, cacheDir }: { codeDir: string; cacheDir: string }): CodeCache {
  if (!isPrivateDirectory(cacheDir)) return { save: () => undefined };
  const unsaved = new Map<string, Script>();
  const prototype = Module.prototype as unknown as CompilingModule;
  const compileFromSource = prototype._compile;
  prototype._compile = function compileWithCodeCache(this: CompilingModule, content: string, filename: string, ...rest: unknown[]): unknown {
    if (!isInside(codeDir, filename)) return compileFromSource.call(this, content, filename, ...rest);
    const cacheFile = join(cacheDir, `${hash('sha256', content)}.cache`);
    const cachedData = readCache(cacheFile);
    const script = new Script(WRAPPER_HEAD + content + WRAPPER_TAIL, { filename, lineOffset: -1, ...(cachedData ? { cachedData } : {}) });
    if (!cachedData || script.cachedDataRejected) unsaved.set(cacheFile, script);
    const wrapper = script.runInThisContext({ displayErrors: true }) as ModuleWrapper;
    return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
  };
  return {
    save() {
      if (unsaved.size === 0) return;
      for (const [file, script] of unsaved) writeCache(file, script.createCachedData());
      unsaved.clear();
      pruneStale(cacheDir);
    },
  };
}

function isInside(dir: string, file: string): boolean {
  const path = relative(dir, file);
  return path !== '' && !path.startsWith('..') && !isAbsolute(path);
}

/** Creates the directory (owner only) and checks that nobody else can write to it, where the OS says so. */
function isPrivateDirectory(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (typeof process.getuid !== 'function') return true;
    const stats = statSync(dir);
    return stats.isDirectory() && stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The cached bytes, or nothing when the file is missing or its digest does not match its contents. */
function readCache(file: string): Buffer | undefined {
  let stored: Buffer;
  try {
    stored = readFileSync(file);
  } catch {
    return undefined;
  }
  const data = stored.subarray(DIGEST_BYTES);
  return stored.length > DIGEST_BYTES && hash('sha256', data, 'buffer').equals(stored.subarray(0, DIGEST_BYTES)) ? data : undefined;
}

/** Digest and data to a temporary file, then renamed over the cache file: a reader sees all of it or none. */
function writeCache(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, Buffer.concat([hash('sha256', data, 'buffer'), data]), { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** Each build's files have their own cache files: those not written for a month (and torn temporaries) go. */
function pruneStale(dir: string): void {
  try {
    const now = Date.now();
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > STALE_AFTER_MS) rmSync(path, { force: true });
    }
  } catch {
    // another process pruning the same directory: nothing lost
  }
}
