import { afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { uiHeaders } from '../support/station/ui-credential.js';

const started: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

/** `npm start` as the user runs it, without a display: the script itself (npm only adds its own banner). */
async function start(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcessWithoutNullStreams; ui: string }> {
  const child = spawn(process.execPath, ['scripts/start.js', '--port', '0', ...args], { env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '', ...env } });
  started.push(child);
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) if (line.startsWith('ui http')) return { child, ui: line.slice(3) };
  throw new Error('start ended before printing its ui link');
}

afterEach(async () => {
  for (const child of started.splice(0)) {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function scratch(): Promise<{ dir: string; browser: string; opened: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'npm-start-'));
  dirs.push(dir);
  const opened = join(dir, 'opened.txt');
  const browser = join(dir, 'browser.sh');
  await writeFile(browser, `#!/bin/sh\nprintf '%s' "$1" > '${opened}.tmp' && mv '${opened}.tmp' '${opened}'\n`);
  await chmod(browser, 0o755);
  return { dir, browser, opened };
}

describe('npm start without the Electron binary', () => {
  it('opens the window in the user’s browser through the launch page, and the printed link works', async () => {
    const { dir, browser, opened } = await scratch();
    const { ui } = await start(['--data-dir', join(dir, 'data')], { BROWSER: browser });
    // The opener is handed the 0600 page in the data directory, never the link (open-ui-in-browser.test.ts reads /proc).
    await expect.poll(() => readFile(opened, 'utf8').catch(() => ''), { timeout: 10_000 }).toContain(join(dir, 'data'));
    expect(await readFile(opened, 'utf8')).not.toContain('#launch=');
    expect((await uiHeaders(ui)).authorization).toMatch(/^Bearer /);
  });

  it('opens nothing with --no-browser, and still prints the link', async () => {
    const { dir, browser, opened } = await scratch();
    const { ui } = await start(['--no-browser', '--data-dir', join(dir, 'data')], { BROWSER: browser });
    expect(ui).toMatch(/\/ui\/#launch=/);
    // The station answers before the opener could have run: nothing was opened by then, nor is anything pending.
    expect((await uiHeaders(ui)).authorization).toMatch(/^Bearer /);
    await expect(readFile(opened, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
