import { describe, expect, it } from 'vitest';
import { readFile, stat } from 'node:fs/promises';
import pino from 'pino';
import { StationError } from '../../src/core/errors/station-error.js';
import { createStation } from '../../src/station/create-station.js';
import { OsKeyStore } from '../../src/station/keychain/os-key-store.js';
import { runningStationWindow } from '../../src/station/running-station-window.js';
import { startServe } from '../support/station/run-cli.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';

// What the desktop app does when `serve` already holds its data directory (src/main/index.ts calls this with the
// failure of its start): the decision and the launch page are plain Node, tested against a real `serve`.
describe('the desktop app started while a station runs on its directory', () => {
  const tempDir = tempDirsRemovedAfterEach('running-window-');

  it('says where the station runs and opens its UI through a one-time link in a page only the user can read', async () => {
    const dataDir = await tempDir();
    const serve = await startServe(['--port', '0', '--data-dir', dataDir]);
    const base = serve.firstLine.replace('listening ', '');
    try {
      const failure = await createStation({ port: 0, dataDir, logLevel: 'silent' }, { keyStore: new OsKeyStore(), logger: pino({ level: 'silent' }) }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(StationError);
      const running = await runningStationWindow(failure, dataDir);
      expect(running?.baseUrl).toBe(base);
      expect(running?.baseUrl).toBe(base);
      expect((await stat(running!.launchPage)).mode & 0o777).toBe(0o600);
      expect(await readFile(running!.launchPage, 'utf8')).toMatch(new RegExp(`url=${base}/ui/#launch=[A-Za-z0-9_-]+`));
    } finally {
      const exit = new Promise((resolve) => serve.child.once('exit', resolve));
      serve.child.kill('SIGTERM');
      await exit;
    }
  }, 60_000);

  it('leaves any other failure of the start to be reported as it is', async () => {
    const dataDir = await tempDir();
    expect(await runningStationWindow(new StationError('ERR_STORE_DAMAGED', 'damaged', { details: { baseUrl: 'http://127.0.0.1:9' } }), dataDir)).toBeUndefined();
    expect(await runningStationWindow(new Error('anything'), dataDir)).toBeUndefined();
  });
});
