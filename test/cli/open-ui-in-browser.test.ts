// Another local user reads every process's command line and environment (/proc/PID/cmdline, and environ where
// the kernel lets them). Each way the station opens its UI in a browser must put no launch token there: the
// browser gets a page in the data directory that only the user can read. The opener here is a stand-in (BROWSER)
// that stays alive until the test has looked, as a real browser would.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startServe } from '../support/station/run-cli.js';
import { uiHeaders } from '../support/station/ui-credential.js';
import { tempDirsRemovedAfterEach } from '../support/temp-dirs.js';
import { waitFor } from '../support/pcsc/pcsc-test-env.js';
import { launchChromium } from '../support/browser/browser.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const tempDir = tempDirsRemovedAfterEach('open-ui-');
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface StandInBrowser {
  env: NodeJS.ProcessEnv;
  /** What the opener was given, once it runs. */
  opened: () => Promise<string[]>;
}

/** A BROWSER program that writes down its arguments and stays alive until the test's cleanup lets it go. */
async function standInBrowser(dir: string): Promise<StandInBrowser> {
  const argsFile = join(dir, 'browser-args');
  const stopFile = join(dir, 'browser-stop');
  const script = join(dir, 'browser.sh');
  await writeFile(script, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}.tmp' && mv '${argsFile}.tmp' '${argsFile}'\nwhile [ ! -e '${stopFile}' ] && [ -d '${dir}' ]; do sleep 0.02; done\n`);
  await chmod(script, 0o700);
  cleanups.push(() => writeFile(stopFile, ''));
  return {
    env: { BROWSER: script, DISPLAY: '', WAYLAND_DISPLAY: '' },
    opened: async () => {
      await waitFor('the browser to be opened', () => existsSync(argsFile), 30_000);
      return (await readFile(argsFile, 'utf8')).trim().split('\n');
    },
  };
}

/** Every process whose command line or environment holds `secret`, as another user would search them. */
async function processesShowing(secret: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    for (const part of ['cmdline', 'environ']) {
      const text = await readFile(`/proc/${pid}/${part}`, 'latin1').catch(() => '');
      if (text.includes(secret)) found.push(`${pid}/${part}: ${text.replace(/\0/g, ' ')}`);
    }
  }
  return found;
}

/** The launch page the browser was given: a 0600 file in the data directory, and the one-time link in it. */
async function launchPageOf(opened: string[], dataDir: string): Promise<{ link: string; token: string }> {
  expect(opened).toHaveLength(1);
  const page = fileURLToPath(opened[0]!);
  expect(page).toBe(join(dataDir, 'open-ui.html'));
  expect((await stat(page)).mode & 0o777).toBe(0o600);
  const link = /url=([^"]+)"/.exec(await readFile(page, 'utf8'))?.[1]?.replace(/&amp;/g, '&');
  const token = link && new URL(link).hash.match(/launch=([\w-]+)/)?.[1];
  if (!link || !token) throw new Error(`no launch link in ${page}`);
  return { link, token };
}

describe('opening the station UI in a browser puts no secret on any command line or environment', () => {
  it('npm start (scripts/start.js, headless): the opener gets the launch page, and the token is in no process', async () => {
    const dir = await tempDir();
    const dataDir = join(dir, 'data');
    const browser = await standInBrowser(dir);
    const started = spawn(process.execPath, ['scripts/start.js', '--port', '0', '--data-dir', dataDir], { cwd: repo, env: { ...process.env, ...browser.env }, stdio: 'ignore' });
    cleanups.push(async () => {
      started.kill('SIGTERM');
      if (started.exitCode === null) await new Promise((resolve) => started.once('exit', resolve));
    });
    const opened = await browser.opened();
    // What another user polls for: a launch link on some command line.
    expect(await processesShowing('#launch=')).toEqual([]);
    const { link, token } = await launchPageOf(opened, dataDir);
    expect(await processesShowing(token)).toEqual([]);
    // The page's link is the user's own way in, once.
    expect((await uiHeaders(link)).authorization).toMatch(/^Bearer /);
  });

  it('the launch page takes a real browser into the station UI, which redeems the token at once', async () => {
    const dir = await tempDir();
    const dataDir = join(dir, 'data');
    const browser = await standInBrowser(dir);
    const { child, line } = await startServe(['--port', '0', '--data-dir', dataDir, '--open'], browser.env);
    cleanups.push(async () => {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    });
    const baseUrl = (await line(0)).replace(/^listening /, '');
    const opened = await browser.opened();
    const { link } = await launchPageOf(opened, dataDir);
    const chromium = await launchChromium();
    cleanups.push(() => chromium.close());
    const page = await chromium.newPage();
    await page.goto(opened[0]!);
    // The UI page redeems the token and drops it from its address.
    await page.waitForURL(`${baseUrl}/ui/`);
    // The address is cleaned before the redeeming request is answered: the window's content shows once it is.
    await page.getByTestId('mode').waitFor();
    await expect(uiHeaders(link)).rejects.toThrow(/401/);
  });
});
