import { afterAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { quitAfterStationCloses } from '../../src/main/quit-after-station-closes.js';
import { startTestStation, type TestStation } from '../support/station/test-station.js';

describe('quitting the desktop app', () => {
  let station: TestStation | undefined;
  afterAll(async () => {
    if (station) await rm(station.dataDir, { recursive: true, force: true });
  });

  it('holds the quit back until the station has closed, then quits once; a second quit meanwhile joins the same close', async () => {
    station = await startTestStation();
    const url = `${station.baseUrl}/api/health`;
    expect((await fetch(url)).status).toBe(200);
    let current: TestStation | undefined = station;
    const events: string[] = [];
    let quitted!: () => void;
    const quit = new Promise<void>((resolve) => (quitted = resolve));
    const beforeQuit = quitAfterStationCloses({
      station: () => current,
      forgetStation: () => {
        events.push('forgotten');
        current = undefined;
      },
      quit: () => {
        events.push('quit');
        quitted();
      },
      logError: (message) => events.push(message),
    });
    const held = { prevented: 0, preventDefault: () => held.prevented++ };
    beforeQuit(held);
    beforeQuit(held);
    expect(held.prevented).toBe(2);
    await quit;
    expect(events).toEqual(['forgotten', 'quit']);
    // Closed for real before the quit: nothing answers on its port any more.
    await expect(fetch(url)).rejects.toThrow();
    // The quit that follows is let through.
    const last = { prevented: 0, preventDefault: () => last.prevented++ };
    beforeQuit(last);
    expect(last.prevented).toBe(0);
  });

  it('quits even when closing fails, saying why', async () => {
    const events: string[] = [];
    let quitted!: () => void;
    const quit = new Promise<void>((resolve) => (quitted = resolve));
    const beforeQuit = quitAfterStationCloses({
      station: () => ({ close: () => Promise.reject(new Error('store busy')) }),
      forgetStation: () => events.push('forgotten'),
      quit: () => {
        events.push('quit');
        quitted();
      },
      logError: (message) => events.push(message),
    });
    beforeQuit({ preventDefault: () => undefined });
    await quit;
    expect(events).toEqual(['signing-station: closing failed: store busy', 'forgotten', 'quit']);
  });
});
