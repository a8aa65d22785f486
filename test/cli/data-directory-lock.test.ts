import { describe, expect, it } from 'vitest';
import { concurrentStartRound } from '../support/bench/faults/concurrent-start.js';
import { runCli, startServe } from '../support/station/run-cli.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';

// The full loop (2, 5 and 10 starts, 20 rounds each) is `npm run bench faults`; here one round of each size.
describe('one station per data directory', () => {
  const tempDir = tempDirsRemovedAfterEach('cli-lock-');

  it.each([2, 5, 10])('of %i stations started at once on a fresh directory exactly one runs, the others name it, and a later start succeeds', async (count) => {
    const { starts, later } = await concurrentStartRound(count);
    const running = starts.filter((start) => start.baseUrl !== undefined);
    expect(running).toHaveLength(1);
    for (const refused of starts.filter((start) => start.baseUrl === undefined)) {
      expect(refused.exitCode).not.toBe(0);
      expect(refused.stderr).toContain(`already running with the data directory`);
      expect(refused.stderr).toContain(`at ${running[0]!.baseUrl}.`);
      expect(refused.stderr).toContain('(ERR_STORE_IN_USE)');
    }
    expect(later.baseUrl, later.stderr).toBeDefined();
  }, 120_000);

  it('keeps the ui control file of the station that runs: `signing-station ui` finds it while a second start is refused', async () => {
    const dataDir = await tempDir();
    const first = await startServe(['--port', '0', '--data-dir', dataDir]);
    const base = first.firstLine.replace('listening ', '');
    try {
      const second = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
      expect(second.code).toBe(3);
      expect(second.stderr).toContain(`already running with the data directory ${dataDir} at ${base}`);
      const ui = await runCli(['ui', '--data-dir', dataDir]);
      expect(ui.stdout).toMatch(new RegExp(`^${base}/ui/#launch=`));
    } finally {
      const exit = new Promise((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGTERM');
      await exit;
    }
  }, 60_000);

  it('a command started with a station on a fresh directory: both work, on one store', async () => {
    const dataDir = await tempDir();
    const [station, added] = await Promise.all([startServe(['--port', '0', '--data-dir', dataDir]), runCli(['clients', 'add', '--client-id', 'racer', '--data-dir', dataDir])]);
    const exit = new Promise((resolve) => station.child.once('exit', resolve));
    station.child.kill('SIGTERM');
    await exit;
    expect(station.firstLine).toMatch(/^listening /);
    expect(added.stderr).toBe('');
    const again = await startServe(['--port', '0', '--data-dir', dataDir]);
    expect(again.firstLine).toMatch(/^listening /);
    const stopped = new Promise((resolve) => again.child.once('exit', resolve));
    again.child.kill('SIGTERM');
    await stopped;
    expect((await runCli(['clients', 'list', '--data-dir', dataDir])).stdout).toContain('racer');
  }, 60_000);
});
