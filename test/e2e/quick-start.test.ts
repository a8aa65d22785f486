import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The README's quick start, run as written on a fresh clone of this repository: the commands are read from the
// README itself, and run with Node alone: their PATH holds node, npm, npx and sh, and no Python, make or compiler,
// so the optional native builds (pkcs11js, smartcard) fail and the install must go on without them. The suite runs
// without network (scripts/test-env.sh), so npm installs from the package cache that installing this checkout
// filled (npm_config_offline), with the user's own npm setup: ~/.npm and ~/.npmrc, found from the account since the
// test environment moves HOME (SIGNING_STATION_NPM_CACHE names another cache). On a machine with network, sqlite3's
// install downloads its prebuilt Node-API binary, which needs no compiler; offline it would have to compile SQLite,
// so the test hands prebuild-install the binary this checkout's install produced, as a local prebuild under the
// name the download has (prebuild-install's documented `npm_config_sqlite3_local_prebuilds`). The station it
// starts keeps its data in the test's scratch folder and is the only one on the default port, so the file runs
// beside the others.
const root = fileURLToPath(new URL('../..', import.meta.url));

/** A directory for PATH with node (this runtime), npm, npx and sh in it, and nothing else: a machine with Node alone. */
async function nodeAloneBin(scratch: string): Promise<string> {
  const bin = join(scratch, 'node-alone-bin');
  await mkdir(bin);
  const onPath = (name: string): string => {
    const dir = (process.env.PATH ?? '').split(delimiter).find((candidate) => candidate && existsSync(join(candidate, name)));
    if (!dir) throw new Error(`${name} is not on PATH`);
    return realpathSync(join(dir, name));
  };
  await symlink(process.execPath, join(bin, 'node'));
  for (const name of ['npm', 'npx', 'sh']) await symlink(onPath(name), join(bin, name));
  return bin;
}

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
    await promisify(execFile)('git', ['clone', '--quiet', root, clone]);
    env.npm_config_sqlite3_local_prebuilds = await sqlitePrebuilds(scratch);
    env.PATH = await nodeAloneBin(scratch);
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  /** Runs one README line in the clone: to completion, or, for a server, until it is up (then stops it). */
  function run(command: string): Promise<{ code: number | null; lines: string[]; output: string }> {
    const child = spawn('sh', ['-c', command], { cwd: clone, env, detached: true });
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
          // Without its native build the station says PC/SC is unavailable, and serves all the same.
          expect(result.output).toContain('ERR_PCSC_UNAVAILABLE');
          expect(served.home).toContain('<h1>Signing Station</h1>');
          expect(served.health).toMatchObject({ status: 'OK', mode: 'sandbox' });
        } else {
          expect(result.code, result.output).toBe(0);
        }
      }
      // The optional native builds failed without a compiler, and npm left them out.
      expect(existsSync(join(clone, 'node_modules/smartcard'))).toBe(false);
      expect(existsSync(join(clone, 'node_modules/pkcs11js'))).toBe(false);
      const help = await run('npx signing-station --help');
      expect(help.code, help.output).toBe(0);
      expect(help.output).toMatch(/Commands:[\s\S]*serve[\s\S]*tokens/);
      // Tokens through PKCS#11 say why they cannot be used and what to install, and the listing still answers.
      const tokens = await run('npx signing-station tokens list');
      expect(tokens.code, tokens.output).toBe(0);
      expect(tokens.output).toContain('! PKCS#11: PKCS#11 is unavailable: the pkcs11js module could not be loaded');
      expect(tokens.output).toContain('apt install python3 make g++');
    },
    15 * 60_000,
  );
});
