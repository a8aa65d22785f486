import { describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { concurrentStartRound } from '../support/bench/faults/concurrent-start.js';
import { cliPath, runCli, startServe } from '../support/station/run-cli.js';
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

  it('a command that writes the store while a station runs waits behind a write of the station, and the station uses what it wrote', async () => {
    const dataDir = await tempDir();
    const station = await startServe(['--port', '0', '--data-dir', dataDir]);
    const base = station.firstLine.replace('listening ', '');
    const store = new sqlite3.Database(join(dataDir, 'station.sqlite'));
    const exec = (sql: string): Promise<void> => new Promise((resolve, reject) => store.exec(sql, (error) => (error ? reject(error) : resolve())));
    try {
      // A long write of the station's: a write transaction held open on its store.
      await exec('BEGIN IMMEDIATE');
      const add = spawn(process.execPath, [cliPath, 'clients', 'add', '--client-id', 'late', '--secret-stdin', '--data-dir', dataDir]);
      let stderr = '';
      add.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => add.once('close', resolve));
      add.stdin.end('late-api-secret-0123456789\n');
      // The command has met the write: one of its threads sleeps in SQLite's busy handler, retrying.
      await vi.waitFor(async () => expect(await sleepingThreads(add.pid!)).toBeGreaterThan(0), { timeout: 30_000, interval: 20 });
      await exec('COMMIT');
      expect(await exited, stderr).toBe(0);
      const prepare = (secret: string): Promise<Response> =>
        fetch(`${base}/api/signatures/prepare-files-for-signing`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_id: 'late', secret, container_type: 'asice', files: [{ fileName: 'a.txt', mimeType: 'text/plain', fileContent: 'QQ==' }] }) });
      expect((await prepare('a-wrong-secret-0123456789')).status).toBe(401);
      expect((await prepare('late-api-secret-0123456789')).status).toBe(200);
    } finally {
      await new Promise((resolve) => store.close(resolve));
      const exit = new Promise((resolve) => station.child.once('exit', resolve));
      station.child.kill('SIGTERM');
      await exit;
    }
  }, 60_000);

  it.each(['restore', 'reset'])('`%s` refuses while a station runs, naming it', async (command) => {
    const dataDir = await tempDir();
    const backup = join(await tempDir(), 'backup.sqlite');
    const station = await startServe(['--port', '0', '--data-dir', dataDir]);
    const base = station.firstLine.replace('listening ', '');
    try {
      expect((await runCli(['backup', backup, '--data-dir', dataDir])).code).toBe(0);
      const refused = await runCli([command, command === 'restore' ? backup : '--yes', '--data-dir', dataDir]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain(base);
      expect(refused.stderr).toContain('(ERR_STORE_IN_USE)');
    } finally {
      const exit = new Promise((resolve) => station.child.once('exit', resolve));
      station.child.kill('SIGTERM');
      await exit;
    }
  }, 60_000);
});

/** How many of a process's threads sleep in a timed wait (SQLite's busy handler sleeps between its retries). */
async function sleepingThreads(pid: number): Promise<number> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const waits = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/wchan`, 'utf8').catch(() => '')));
  return waits.filter((wait) => wait.includes('nanosleep')).length;
}
