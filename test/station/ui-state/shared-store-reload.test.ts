import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StationState } from '../../../src/core/schemas/station-state.js';
import { openStationData, type StationData } from '../../../src/station/open-station-data.js';
import { OsKeyStore } from '../../../src/station/keychain/os-key-store.js';
import { TokenRegistry } from '../../../src/station/tokens/token-registry.js';
import { UiPromptBroker } from '../../../src/station/prompts/ui-prompt-broker.js';
import { StationStateFeed } from '../../../src/station/ui-state/station-state-feed.js';
import { systemClock } from '../../../src/station/ports/clock.js';
import { runCli } from '../../support/station/run-cli.js';

/**
 * The window hears of every write to the data directory, but only another process's makes the station reload
 * what it keeps in memory (modules, the certificate store): its own writes (a timestamp's serial block, an OIDC
 * code, a client registered in the window) happen up to thousands of times a second under load.
 */
describe('the shared store: the station reloads for writes of other processes only', () => {
  let dataDir: string;
  let data: StationData;
  let feed: StationStateFeed;
  let reloads = 0;
  let checks = 0;
  const states: StationState[] = [];

  const stateWith = async (clientId: string): Promise<void> => {
    const pushed = () => states.some((candidate) => candidate.clients.some((client) => client.clientId === clientId));
    await expect.poll(pushed, { timeout: 5_000, interval: 20 }).toBe(true);
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'shared-store-'));
    data = await openStationData({ dataDir }, new OsKeyStore());
    feed = new StationStateFeed({
      station: () => ({ name: 'Signing Station', version: 'test', mode: 'sandbox', baseUrl: 'http://127.0.0.1:1', dataDir, keyStore: 'test' }),
      outputDir: () => dataDir,
      clients: data.clients,
      audit: data.audit,
      tokens: new TokenRegistry([]),
      prompts: new UiPromptBroker(systemClock),
      sharedStore: {
        dataDir,
        changedElsewhere: () => {
          checks++;
          return data.database.changedElsewhere();
        },
        reload: async () => void reloads++,
      },
    });
    await feed.start();
    feed.subscribe((state) => states.push(state));
  });
  afterAll(async () => {
    feed?.stop();
    await data?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('pushes the station’s own write to the window without reloading the store', async () => {
    for (let i = 0; i < 10; i++) await data.clients.upsert({ clientId: `own-write-${i}`, allowedIps: ['127.0.0.1'] });
    await stateWith('own-write-9');
    // The writes are pushed; the check a little later (for a commit that shows late) is the last decision they cause.
    const checked = checks;
    await expect.poll(() => checks, { timeout: 5_000, interval: 20 }).toBeGreaterThan(checked);
    expect(reloads).toBe(0);
  });

  it('reloads, then pushes, when the CLI writes the same store', async () => {
    const added = await runCli(['clients', 'add', '--client-id', 'cli-write', '--allowed-ip', '127.0.0.1', '--data-dir', dataDir]);
    expect(added.code, added.stderr).toBe(0);
    await stateWith('cli-write');
    expect(reloads).toBeGreaterThanOrEqual(1);
  });
});

/**
 * Another process's commit is in the WAL file, which the watcher sees, before the WAL index makes it visible: the
 * check right after the write can miss it, and the CLI may write nothing after it. Here the store answers "not
 * changed" to the first check, as it does in that window, and "changed" after.
 */
describe('the shared store: a commit that becomes visible after its write event', () => {
  let dataDir: string;
  let feed: StationStateFeed | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'late-commit-'));
  });
  afterAll(async () => {
    feed?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is checked once more a little later, and reloaded; that check does not re-arm itself', async () => {
    const answers = [false, true];
    let checks = 0;
    let reloads = 0;
    feed = new StationStateFeed({
      station: () => ({ name: 'Signing Station', version: 'test', mode: 'sandbox', baseUrl: 'http://127.0.0.1:1', dataDir, keyStore: 'test' }),
      outputDir: () => dataDir,
      clients: { list: async () => [] },
      audit: { list: async () => [] },
      tokens: new TokenRegistry([]),
      prompts: new UiPromptBroker(systemClock),
      sharedStore: { dataDir, changedElsewhere: async () => answers[checks++] ?? false, reload: async () => void reloads++ },
    });
    await feed.start();
    // The feed's timers run on a fake clock, to their end: a check that re-armed itself would run again and again.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await writeFile(join(dataDir, 'station.sqlite-wal'), 'frames');
      // The write event comes from the real file watcher, and arms the feed's first timer.
      const deadline = performance.now() + 5_000;
      while (vi.getTimerCount() === 0 && performance.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      await vi.runAllTimersAsync();
    } finally {
      vi.useRealTimers();
    }
    expect(reloads).toBe(1);
    expect(checks).toBe(2);
  });
});
