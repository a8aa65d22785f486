import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startServe } from '../support/station/run-cli.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';

/** The cache files one command left, by name, with their modification times (a rewrite changes it). */
async function cacheFiles(base: string, command: string): Promise<Map<string, number>> {
  const dir = join(base, `v8-${process.versions.v8}-${process.arch}`, command);
  const names = existsSync(dir) ? await readdir(dir) : [];
  return new Map(await Promise.all(names.map(async (name) => [name, (await stat(join(dir, name))).mtimeMs] as const)));
}

describe('the CLI compiles its files with the V8 code cache of earlier runs (src/cli/code-cache)', () => {
  const tempDir = tempDirsRemovedAfterEach('code-cache-');

  const clientsList = async (dir: string, cache: string) => {
    const result = await runCli(['clients', 'list', '--json', '--data-dir', join(dir, 'data')], { env: { SIGNING_STATION_CODE_CACHE: cache } });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };

  it('writes a cache per file the command ran, and the next run uses it (V8 accepts it: nothing is written again)', async () => {
    const dir = await tempDir();
    const cache = join(dir, 'cache');
    const first = await clientsList(dir, cache);
    const written = await cacheFiles(cache, 'clients');
    expect(written.size).toBeGreaterThanOrEqual(3); // main, the clients command, the shared chunks
    expect([...written.keys()].every((name) => /^[0-9a-f]{64}\.cache$/.test(name))).toBe(true);
    expect(await clientsList(dir, cache)).toBe(first);
    expect(await cacheFiles(cache, 'clients')).toEqual(written);
  });

  it('compiles a damaged cache file from source, answers the same, and writes it anew', async () => {
    const dir = await tempDir();
    const cache = join(dir, 'cache');
    const first = await clientsList(dir, cache);
    const [damagedName] = (await cacheFiles(cache, 'clients')).keys();
    const damaged = join(cache, `v8-${process.versions.v8}-${process.arch}`, 'clients', damagedName!);
    const bytes = await readFile(damaged);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 100) ^ 0xff, bytes.length - 100); // same length: only the stored digest tells
    await writeFile(damaged, bytes);
    const before = (await stat(damaged)).mtimeMs;
    expect(await clientsList(dir, cache)).toBe(first);
    expect((await stat(damaged)).mtimeMs).not.toBe(before);
    expect((await readFile(damaged)).equals(bytes)).toBe(false);
  });

  it('leaves a cache directory that others may write to unused: a code cache is code', async () => {
    const dir = await tempDir();
    const cache = join(dir, 'cache');
    const commandDir = join(cache, `v8-${process.versions.v8}-${process.arch}`, 'clients');
    await mkdir(commandDir, { recursive: true });
    await chmod(commandDir, 0o777);
    await clientsList(dir, cache);
    expect(await readdir(commandDir)).toEqual([]);
  });

  it('writes nothing when turned off', async () => {
    const dir = await tempDir();
    const cache = join(dir, 'cache');
    await clientsList(dir, 'off');
    expect(existsSync(cache)).toBe(false);
    expect(existsSync(join(dir, 'off'))).toBe(false);
  });

  it('serve writes its cache once it has started, not only when it stops, and the next start takes it', async () => {
    const dir = await tempDir();
    const cache = join(dir, 'cache');
    const serveUntil = async (done: () => Promise<unknown>): Promise<void> => {
      const { child } = await startServe(['--port', '0', '--data-dir', join(dir, 'data')], { SIGNING_STATION_CODE_CACHE: cache });
      try {
        await done();
      } finally {
        const exit = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL'); // a station may run for days and end without an exit handler
        await exit;
      }
    };
    // The cache is written file by file: wait until the count holds still, or the kill could land mid-write and
    // leave the next start files to add (a CI run saw 6 of 31 written).
    let previousCount = -1;
    const writtenAndStill = async (): Promise<boolean> => {
      const count = (await cacheFiles(cache, 'serve')).size;
      const still = count >= 3 && count === previousCount;
      previousCount = count;
      return still;
    };
    await serveUntil(() => expect.poll(writtenAndStill, { timeout: 10_000, interval: 200 }).toBe(true));
    const written = await cacheFiles(cache, 'serve');
    // Serve's start runs without the optimizing compiler (launch.ts): a cache written under other V8 flags than
    // the next start compiles with would be refused, and written again, at every start.
    await serveUntil(() => new Promise((resolve) => setTimeout(resolve, 3000)));
    expect(await cacheFiles(cache, 'serve')).toEqual(written);
  });
});
