import { describe, expect, it } from 'vitest';
import { overviewSchema } from '../../../../src/core/schemas/admin-api.js';
import { runCli, startServe } from '../../../support/station/run-cli.js';
import { uiHeaders } from '../../../support/station/ui-credential.js';
import { tempDirsRemovedAfterEach } from '../../../support/temp-dirs.js';

// The station where the `smartcard` native module cannot load (its build was skipped for want of pcsc-lite's
// headers, or pcsc-lite is missing): the loader is pointed at a module that does not exist, in the real CLI and
// the real station. The loadable path is every other PC/SC test (real pcscd, emulated cards).
const unloadable = { SIGNING_STATION_SMARTCARD_MODULE: '/nonexistent/smartcard-native.node' };
const DEBIAN_ADVICE = 'apt install libpcsclite1 pcscd libpcsclite-dev';

describe('PC/SC unavailable (smartcard module not loadable)', () => {
  const tempDir = tempDirsRemovedAfterEach('pcsc-unavailable-');

  it('tokens list still lists, and says PC/SC is unavailable and what to install', async () => {
    const result = await runCli(['tokens', 'list', '--no-known-modules', '--data-dir', await tempDir()], { env: unloadable });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('! Smart card readers: PC/SC is unavailable: the /nonexistent/smartcard-native.node module could not be loaded');
    expect(result.stdout).toContain(DEBIAN_ADVICE);
    expect(result.stdout).toContain('Fedora: dnf install pcsc-lite pcsc-lite-devel');
  });

  it('the station starts, serves, logs the cause once, and the UI overview shows it as a source problem', async () => {
    const { child, firstLine, lines, stderr } = await startServe(['--port', '0', '--data-dir', await tempDir()], unloadable);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      expect(firstLine).toMatch(/^listening http:\/\/127\.0\.0\.1:\d+$/);
      const base = firstLine.replace('listening ', '');
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      // Logged from the start, before anything asks for a token (the token sources start on first use).
      await expect.poll(() => stderr().includes('ERR_PCSC_UNAVAILABLE')).toBe(true);
      await new Promise<void>((resolve) => (lines.length > 1 ? resolve() : child.stdout.once('data', () => resolve())));
      const link = lines[1]!.replace(/^ui /, '');
      const overview = overviewSchema.parse(await (await fetch(`${base}/admin/api/overview`, { headers: await uiHeaders(link) })).json());
      const problem = overview.problems.find((p) => p.code === 'ERR_PCSC_UNAVAILABLE');
      expect(problem?.message).toContain(DEBIAN_ADVICE);
      const logged = stderr()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: number; code?: string; msg: string })
        .filter((entry) => entry.code === 'ERR_PCSC_UNAVAILABLE');
      expect(logged).toHaveLength(1);
      expect(logged[0]!.level).toBe(40);
      expect(logged[0]!.msg).toContain(DEBIAN_ADVICE);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exit).toBe(0);
  });
});
