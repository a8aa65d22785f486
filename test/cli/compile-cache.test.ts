import { chmod, mkdir, readdir, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startServe } from '../support/station/run-cli.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';

/** Node 22.1 and later compile with a cache kept between runs; Node 20 has none. */
const runtimeHasCompileCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** Every file under `dir` (the runtime keeps one folder per Node version and architecture in it). */
async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the CLI uses the runtime compile cache, in a directory only its user can write', () => {
  const tempDir = tempDirsRemovedAfterEach('compile-cache-');

  /** A run of a command that loads chunks besides main (the clients command and the store). */
  const clientsList = async (cacheHome: string, dataDir: string) => {
    const result = await runCli(['clients', 'list', '--json', '--data-dir', dataDir], { env: { XDG_CACHE_HOME: cacheHome } });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };

  it.runIf(runtimeHasCompileCache)('writes the cache under the user cache directory, created owner-only, and answers the same from it', async () => {
    const dir = await tempDir();
    const cacheDir = join(dir, 'signing-station', 'compile-cache');
    const first = await clientsList(dir, join(dir, 'data'));
    expect((await filesUnder(cacheDir)).length).toBeGreaterThanOrEqual(3); // main, the clients command, shared chunks
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700);
    expect(await clientsList(dir, join(dir, 'data'))).toBe(first);
  });

  it.runIf(runtimeHasCompileCache)('leaves a cache directory that another user could write to, or rename, unused: a compile cache is code', async () => {
    const dir = await tempDir();
    const open = join(dir, 'open');
    await mkdir(join(open, 'signing-station', 'compile-cache'), { recursive: true });
    await chmod(join(open, 'signing-station', 'compile-cache'), 0o777);
    const renamable = join(dir, 'renamable');
    await mkdir(join(renamable, 'signing-station', 'compile-cache'), { recursive: true, mode: 0o700 });
    await chmod(join(renamable, 'signing-station'), 0o777); // writable by all, no sticky bit: the leaf can be swapped
    for (const cacheHome of [open, renamable]) {
      await clientsList(cacheHome, join(dir, 'data'));
      expect(await filesUnder(cacheHome)).toEqual([]);
    }
  });

  it.runIf(runtimeHasCompileCache)('serve writes its cache once it has started, not only at exit (a station may be killed)', async () => {
    const dir = await tempDir();
    const { child } = await startServe(['--port', '0', '--data-dir', join(dir, 'data')], { XDG_CACHE_HOME: dir });
    try {
      await expect.poll(async () => (await filesUnder(join(dir, 'signing-station', 'compile-cache'))).length, { timeout: 10_000, interval: 200 }).toBeGreaterThanOrEqual(3);
    } finally {
      const exit = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exit;
    }
  });

  it.skipIf(runtimeHasCompileCache)('runs without a cache on a runtime that has none, and writes nothing', async () => {
    const dir = await tempDir();
    expect(JSON.parse(await clientsList(dir, join(dir, 'data')))).toEqual([]);
    expect(existsSync(join(dir, 'signing-station'))).toBe(false);
  });
});
