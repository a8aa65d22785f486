import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The README's quick start, run as written on a fresh clone of this repository: the commands are read from the
// README itself. The suite runs without network (scripts/test-env.sh), so npm installs from the package cache
// that installing this checkout filled (npm_config_offline), with the user's own npm setup: ~/.npm and ~/.npmrc
// (where node-gyp may be told where Node's headers are), found from the account since the test environment moves
// HOME (SIGNING_STATION_NPM_CACHE names another cache); as root, pcsc-lite's headers are hidden in a
// private mount namespace, as on a machine with Node alone, so the optional `smartcard` build fails and the
// install must go on without it. On a machine with network, sqlite3's install downloads its prebuilt Node-API
// binary, which needs no compiler; offline it would compile SQLite instead (two minutes of a core), so the test hands
// prebuild-install the binary this checkout's install produced, as a local prebuild under the name the download
// has (prebuild-install's documented `npm_config_sqlite3_local_prebuilds`). The station it starts keeps its data in
// the test's scratch folder and is the only one on the default port, so the file runs beside the others.
const root = fileURLToPath(new URL('../..', import.meta.url));
const PCSC_HEADERS = '/usr/include/PCSC';
const hidePcscHeaders = process.getuid?.() === 0 && existsSync(PCSC_HEADERS);

/** A directory holding this checkout's sqlite3 binary packed as the prebuilt download for this platform. */
async function sqlitePrebuilds(scratch: string): Promise<string> {
  const sqlite3 = join(root, 'node_modules/sqlite3');
  const { version, binary } = JSON.parse(await readFile(join(sqlite3, 'package.json'), 'utf8')) as { version: string; binary: { napi_versions: number[] } };
  const napi = Math.max(...binary.napi_versions.filter((candidate) => candidate <= Number(process.versions.napi)));
  const prebuilds = join(scratch, 'prebuilds');
  await mkdir(prebuilds);
  const archive = join(prebuilds, `sqlite3-v${version}-napi-v${napi}-${process.platform}-${process.arch}.tar.gz`);
  await promisify(execFile)('tar', ['-czf', archive, '-C', sqlite3, 'build/Release/node_sqlite3.node']);
  return prebuilds;
}

/** The shell commands of the first ```sh block under "## Quick start". */
async function quickStartCommands(): Promise<string[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Quick start'));
  const block = section && /```sh\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md has no ```sh block under "## Quick start"');
  return block[1]!.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
}

describe('the README quick start on a fresh clone', () => {
  let clone: string;
  let scratch: string;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_cache: process.env.SIGNING_STATION_NPM_CACHE ?? join(userInfo().homedir, '.npm'),
    npm_config_userconfig: join(userInfo().homedir, '.npmrc'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    DISPLAY: '',
    WAYLAND_DISPLAY: '',
  };
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'quick-start-'));
    clone = join(scratch, 'signing-station');
    env.SIGNING_STATION_DATA_DIR = join(scratch, 'data');
    env.npm_config_sqlite3_local_prebuilds = await sqlitePrebuilds(scratch);
    await promisify(execFile)('git', ['clone', '--quiet', root, clone]);
    if (hidePcscHeaders) await promisify(execFile)('mkdir', [join(scratch, 'no-pcsc-headers')]);
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  /** Runs one README line in the clone: to completion, or, for a server, until it is up (then stops it). */
  function run(command: string): Promise<{ code: number | null; lines: string[]; output: string }> {
    const shell = hidePcscHeaders ? ['unshare', ['--mount', '--propagation', 'private', 'sh', '-c', `mount --bind ${join(scratch, 'no-pcsc-headers')} ${PCSC_HEADERS} && ${command}`]] as const : ['sh', ['-c', command]] as const;
    const child = spawn(shell[0], [...shell[1]], { cwd: clone, env, detached: true });
    let output = '';
    const lines: string[] = [];
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      output += `${line}\n`;
      // After npm's banner: a server's `listening` line, then its UI link: it is up. Check it, then stop the whole
      // process group (npm, start.js, station) whatever the check found.
      const listening = lines.findIndex((text) => text.startsWith('listening '));
      if (listening >= 0 && lines.length === listening + 2) void checkServer(lines[listening]!).finally(() => process.kill(-child.pid!, 'SIGTERM'));
    });
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, lines, output }));
    });
  }

  const served: { home?: string; health?: unknown } = {};
  async function checkServer(listeningLine: string): Promise<void> {
    const base = listeningLine.replace('listening ', '');
    served.home = await (await fetch(`${base}/`)).text();
    served.health = await (await fetch(`${base}/api/health`)).json();
  }

  it(
    'installs with Node alone, starts the station, and the CLI runs through npx',
    async () => {
      const commands = await quickStartCommands();
      expect(commands).toEqual(['npm install', 'npm start']);
      for (const command of commands) {
        const result = await run(command);
        if (command === 'npm start') {
          const listening = result.lines.findIndex((text) => text.startsWith('listening '));
          expect(result.lines[listening], result.output).toBe('listening http://127.0.0.1:27420');
          expect(result.lines[listening + 1]).toMatch(/^ui http:\/\/127\.0\.0\.1:27420\/ui\/#launch=/);
          // Without pcsc-lite's headers the station says PC/SC is unavailable, and serves all the same.
          if (hidePcscHeaders) expect(result.output).toContain('ERR_PCSC_UNAVAILABLE');
          expect(served.home).toContain('<h1>Signing Station</h1>');
          expect(served.health).toMatchObject({ status: 'OK', mode: 'sandbox' });
        } else {
          expect(result.code, result.output).toBe(0);
        }
      }
      if (hidePcscHeaders) expect(existsSync(join(clone, 'node_modules/smartcard'))).toBe(false);
      const help = await run('npx signing-station --help');
      expect(help.code, help.output).toBe(0);
      expect(help.output).toMatch(/Commands:[\s\S]*serve[\s\S]*tokens/);
    },
    15 * 60_000,
  );
});
