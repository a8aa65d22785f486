import { afterEach, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStationData } from '../../../src/station/open-station-data.js';
import { OsKeyStore } from '../../../src/station/keychain/os-key-store.js';

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

describe('data directory permissions', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('tightens an existing data directory to 0700 and its files to 0600 at every start', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'station-perms-'));
    dirs.push(parent);
    const dataDir = join(parent, 'data');
    await mkdir(join(dataDir, 'sessions'), { recursive: true, mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(join(dataDir, 'sessions', 'left-over.pdf'), 'x', { mode: 0o644 });

    for (let start = 0; start < 2; start++) {
      const data = await openStationData({ dataDir }, new OsKeyStore());
      await data.close();
      expect(await modeOf(dataDir)).toBe(0o700);
      expect(await modeOf(join(dataDir, 'sessions'))).toBe(0o700);
      for (const name of (await readdir(dataDir, { recursive: true })).map(String)) {
        const path = join(dataDir, name);
        if ((await stat(path)).isFile()) expect({ name, mode: await modeOf(path) }).toEqual({ name, mode: 0o600 });
      }
      await chmod(dataDir, 0o755);
      await chmod(join(dataDir, 'station.sqlite'), 0o644);
    }
  });
});
