import { describe, expect, it } from 'vitest';
import { readdir, readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, startServe } from '../support/station/run-cli.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';

async function stop(child: { kill: (signal: NodeJS.Signals) => boolean; once: (event: 'exit', listener: () => void) => unknown }): Promise<void> {
  const exit = new Promise<void>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exit;
}

const clientIds = async (dataDir: string): Promise<string[]> =>
  (JSON.parse((await runCli(['clients', 'list', '--json', '--data-dir', dataDir])).stdout) as { clientId: string }[]).map((client) => client.clientId);

describe('backup, restore and reset', () => {
  const tempDir = tempDirsRemovedAfterEach('cli-backup-');

  it('backs up while the station runs, refuses restore while it runs, and brings the station back from a lost store', async () => {
    const [dataDir, backups] = [await tempDir(), await tempDir()];
    const backup = join(backups, 'station.backup');
    const station = await startServe(['--port', '0', '--data-dir', dataDir]);
    try {
      expect((await runCli(['clients', 'add', '--client-id', 'before-backup', '--data-dir', dataDir])).code).toBe(0);
      const made = await runCli(['backup', backup, '--data-dir', dataDir]);
      expect(made.stderr).toBe(`backed up: ${backup}\n`);
      expect((await runCli(['backup', backup, '--data-dir', dataDir])).stderr).toContain(`${backup} exists`);
      const refused = await runCli(['restore', backup, '--data-dir', dataDir]);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('ERR_STORE_IN_USE');
    } finally {
      await stop(station.child);
    }

    await truncate(join(dataDir, 'station.sqlite'), 0);
    const lost = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(lost.code).not.toBe(0);
    expect(lost.stderr).toContain('ERR_STORE_MISSING');

    const restored = await runCli(['restore', backup, '--data-dir', dataDir]);
    expect(restored.stderr).toMatch(/^restored station [0-9a-f-]{36} from .*; the replaced files are in .*replaced-/);
    expect(await clientIds(dataDir)).toEqual(['before-backup']);
    const again = await startServe(['--port', '0', '--data-dir', dataDir]);
    expect(again.firstLine).toMatch(/^listening /);
    await stop(again.child);
  }, 90_000);

  it('refuses a file that is no backup before anything moves', async () => {
    const dataDir = await tempDir();
    expect((await runCli(['clients', 'add', '--client-id', 'stays', '--data-dir', dataDir])).code).toBe(0);
    await runCli(['backup', join(dataDir, 'x'), '--data-dir', dataDir]);
    await truncate(join(dataDir, 'x'), 100);
    const refused = await runCli(['restore', join(dataDir, 'x'), '--data-dir', dataDir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not a station backup');
    expect(await clientIds(dataDir)).toEqual(['stays']);
    expect((await readdir(dataDir)).filter((name) => name.startsWith('replaced-'))).toEqual([]);
  });

  it('reset asks for --yes, then sets the store aside and a new station starts', async () => {
    const dataDir = await tempDir();
    expect((await runCli(['clients', 'add', '--client-id', 'old', '--data-dir', dataDir])).code).toBe(0);
    const oldId = (await readFile(join(dataDir, 'station-created'), 'utf8')).trim();
    expect((await runCli(['reset', '--data-dir', dataDir])).stderr).toContain('add --yes to confirm');
    expect(await clientIds(dataDir)).toEqual(['old']);
    const reset = await runCli(['reset', '--yes', '--data-dir', dataDir]);
    const aside = /the earlier store is in (.*)\n/.exec(reset.stderr)?.[1];
    expect(aside).toBeDefined();
    expect((await readdir(aside!)).sort()).toEqual(expect.arrayContaining(['station-created', 'station.sqlite']));
    expect(await clientIds(dataDir)).toEqual([]);
    expect((await readFile(join(dataDir, 'station-created'), 'utf8')).trim()).not.toBe(oldId);
  });

  it('reset keeps a passphrase key file that still reads (the keys of earlier stations stay restorable) and a new station starts', async () => {
    const dataDir = await tempDir();
    const env = { SIGNING_STATION_PASSPHRASE: 'a long enough passphrase' };
    const options = ['--key-store', 'passphrase', '--data-dir', dataDir];
    expect((await runCli(['clients', 'add', '--client-id', 'old', ...options], { env })).code).toBe(0);
    expect((await runCli(['reset', '--yes', ...options], { env })).code).toBe(0);
    const fresh = await runCli(['clients', 'list', '--json', ...options], { env });
    expect(fresh.stderr).toBe('');
    expect(JSON.parse(fresh.stdout)).toEqual([]);
    expect(Object.keys((JSON.parse(await readFile(join(dataDir, 'master-key.enc.json'), 'utf8')) as { entries: object }).entries)).toHaveLength(2);
  });
});
