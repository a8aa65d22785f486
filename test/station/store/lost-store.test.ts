import { describe, expect, it } from 'vitest';
import { readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStationData } from '../../../src/station/open-station-data.js';
import { OsKeyStore } from '../../../src/station/keychain/os-key-store.js';
import { isStationError } from '../../../src/core/errors/station-error.js';
import { tempDirsRemovedAfterEach } from '../../support/temp-dirs.js';

const failureOf = (promise: Promise<unknown>): Promise<{ code: string; message: string }> =>
  promise.then(
    () => {
      throw new Error('expected the open to fail');
    },
    (error: unknown) => {
      if (!isStationError(error)) throw error;
      return { code: error.code, message: error.message };
    },
  );

/** A data directory whose station was created, with a client in it; its store is then damaged by `damage`. */
async function createdStation(dataDir: string): Promise<string> {
  const data = await openStationData({ dataDir }, new OsKeyStore());
  await data.clients.upsert({ clientId: 'kept' });
  await data.close();
  return join(dataDir, 'station.sqlite');
}

describe('a lost store is never a new station', () => {
  const tempDir = tempDirsRemovedAfterEach('lost-store-');

  it.each([
    ['empty (0 bytes)', (store: string) => truncate(store, 0), 'is empty'],
    ['missing', (store: string) => rm(store), 'is missing'],
  ])('refuses a store that is %s where the station was created, naming the file and the way back, and leaves it as it is', async (_, damage, says) => {
    const dataDir = await tempDir();
    const store = await createdStation(dataDir);
    await damage(store);
    const failure = await failureOf(openStationData({ dataDir }, new OsKeyStore()));
    expect(failure.code).toBe('ERR_STORE_MISSING');
    expect(failure.message).toContain(`The store ${store} ${says}`);
    expect(failure.message).toContain('signing-station restore FILE');
    expect(failure.message).toContain('signing-station reset');
    expect((await stat(store).catch(() => undefined))?.size ?? 0).toBe(0);
  });

  it('refuses a damaged store naming the file', async () => {
    const dataDir = await tempDir();
    const store = await createdStation(dataDir);
    await writeFile(store, Buffer.alloc(8192, 0x5a));
    const failure = await failureOf(openStationData({ dataDir }, new OsKeyStore()));
    expect(failure.code).toBe('ERR_STORE_DAMAGED');
    expect(failure.message).toContain(`The store ${store} is damaged`);
  });

  it('refuses the store of another station put in its place', async () => {
    const [dataDir, otherDir] = [await tempDir(), await tempDir()];
    const store = await createdStation(dataDir);
    await writeFile(store, await readFile(await createdStation(otherDir)));
    await rm(`${store}-wal`, { force: true });
    const failure = await failureOf(openStationData({ dataDir }, new OsKeyStore()));
    expect(failure.code).toBe('ERR_STORE_MISMATCH');
    expect(failure.message).toContain(`was created as station ${(await readFile(join(dataDir, 'station-created'), 'utf8')).trim()}`);
  });

  it('finishes a directory whose first start never finished (an empty store and no creation marker)', async () => {
    const dataDir = await tempDir();
    await writeFile(join(dataDir, 'station.sqlite'), '');
    const data = await openStationData({ dataDir }, new OsKeyStore());
    const stationId = await data.settings.stationId();
    await data.close();
    expect((await readFile(join(dataDir, 'station-created'), 'utf8')).trim()).toBe(stationId);
  });
});
