import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { runCli, startServe } from '../support/station/run-cli.js';
import { uiHeaders } from '../support/station/ui-credential.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';

describe('signing-station serve', () => {
  const tempDir = tempDirsRemovedAfterEach('cli-serve-');

  it('prints `listening http://127.0.0.1:PORT` first, serves, and exits 0 on SIGTERM', async () => {
    const { child, firstLine, line } = await startServe(['--port', '0', '--data-dir', await tempDir()]);
    expect(firstLine).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+$/);
    const base = firstLine.replace('listening ', '');
    const health = await fetch(`${base}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'OK' });
    expect(await line(1)).toMatch(new RegExp(`^ui ${base}/ui/#launch=[A-Za-z0-9_-]{43}$`));
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('takes --no-browser (as npm start does): serves, and prints the ui link for the user to open', async () => {
    const { child, firstLine, line } = await startServe(['--port', '0', '--data-dir', await tempDir(), '--no-browser']);
    expect(firstLine).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+$/);
    expect(await line(1)).toMatch(/^ui http:\/\/127\.0\.0\.1:\d+\/ui\/#launch=/);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('logs requests as JSON on stderr without one-time tokens, secrets or UI credentials', async () => {
    const { child, line, stderr } = await startServe(['--port', '0', '--data-dir', await tempDir(), '--log-level', 'debug']);
    const link = (await line(1)).replace(/^ui /, '');
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get('launch')!;
    await fetch(new URL('/ui/', link));
    const ui = await uiHeaders(link);
    const secret = 'never-log-this-secret-0123456789';
    await fetch(new URL('/admin/api/clients', link), {
      method: 'POST',
      headers: { ...ui, 'content-type': 'application/json' },
      body: JSON.stringify({ registration: { clientId: 'logged' }, secret }),
    });
    const exit = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exit;
    const log = stderr();
    const entries = log.trim().split('\n').map((line) => JSON.parse(line) as { req?: { path?: string } });
    expect(entries.some((entry) => entry.req?.path === '/ui/')).toBe(true);
    for (const forbidden of [token, secret, ui.authorization.replace('Bearer ', '')]) expect(log).not.toContain(forbidden);
  });

  it('does not log requests at the default level (info)', async () => {
    const { child, line, stderr } = await startServe(['--port', '0', '--data-dir', await tempDir()]);
    const base = (await line(0)).replace(/^listening /, '');
    expect((await fetch(new URL('/api/health', base))).status).toBe(200);
    const exit = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exit;
    const entries = stderr().trim().split('\n').filter(Boolean).map((entry) => JSON.parse(entry) as { req?: unknown; res?: unknown });
    expect(entries.filter((entry) => entry.req !== undefined || entry.res !== undefined)).toEqual([]);
  });

  it('exits 0 on SIGINT too', async () => {
    const { child } = await startServe(['--port', '0', '--data-dir', await tempDir()]);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('fails clearly when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    const result = await runCli(['serve', '--port', String(port), '--data-dir', await tempDir()]);
    blocker.close();
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    expect(result.stderr).toContain('ERR_SERVER_PORT_IN_USE');
  });

  it('fails clearly when the data directory cannot be created', async () => {
    // Under a regular file: refused for root too (permission bits alone would not stop root).
    const file = join(await tempDir(), 'a-file');
    await writeFile(file, 'x');
    const result = await runCli(['serve', '--port', '0', '--data-dir', join(file, 'data')]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('ERR_CONFIG_DATA_DIR_UNWRITABLE');
    expect(result.stderr).toContain('--data-dir');
  });

  it('fails clearly, naming the fix, when no keychain is reachable', async () => {
    const result = await runCli(['serve', '--port', '0', '--data-dir', await tempDir()], {
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('ERR_KEYCHAIN_UNAVAILABLE');
    expect(result.stderr).toContain('--key-store passphrase');
  });

  it('runs without a keychain when the passphrase key store is chosen explicitly', async () => {
    const dataDir = await tempDir();
    const env = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', SIGNING_STATION_PASSPHRASE: 'correct horse battery staple' };
    const { child, firstLine } = await startServe(['--port', '0', '--data-dir', dataDir, '--key-store', 'passphrase'], env);
    expect(firstLine).toMatch(/^listening /);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    const wrong = await runCli(['clients', 'add', '--client-id', 'x', '--data-dir', dataDir, '--key-store', 'passphrase', '--secret-stdin'], {
      env: { ...env, SIGNING_STATION_PASSPHRASE: 'a different passphrase' },
      stdin: 'secret-secret-secret\n',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('does not open with this passphrase');
  });

  it('refuses a non-loopback host and a bad port with a clear message', async () => {
    const host = await runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--data-dir', await tempDir()]);
    expect(host.code).toBe(2);
    expect(host.stderr).toContain('127.0.0.1 only');
    const port = await runCli(['serve', '--port', 'eighty']);
    expect(port.code).not.toBe(0);
    expect(port.stderr).toContain('a port is a whole number');
  });

  it('takes settings from a config file, with flags overriding it, and refuses unknown keys', async () => {
    const dir = await tempDir();
    const configFile = join(dir, 'config.json');
    await writeFile(configFile, JSON.stringify({ mode: 'production', port: 1, dataDir: join(dir, 'from-file') }));
    const { child, firstLine } = await startServe(['--config', configFile, '--port', '0']);
    const health = await (await fetch(`${firstLine.replace('listening ', '')}/api/health`)).json();
    expect(health).toMatchObject({ mode: 'production' });
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));

    await writeFile(configFile, JSON.stringify({ mdoe: 'production' }));
    const typo = await runCli(['serve', '--config', configFile, '--port', '0', '--data-dir', join(dir, 'd')]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('mdoe');
  });
});
