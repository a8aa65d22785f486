import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** A block that cannot run here says so on its first line, with the reason. */
const NOT_RUN = /^# not run in CI: (.{10,})$/;

/** The ```sh blocks of a guide, in order. */
async function shellBlocks(guide: string): Promise<string[]> {
  const text = await readFile(join(root, guide), 'utf8');
  return [...text.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

// docs/integrating.md as an integrator follows it: every shell block, in order, in one shell from the clone (as the
// guide says to run them), against the station its first block starts, with a throwaway home and data directory.
describe('docs/integrating.md, its commands run as written', () => {
  let home: string;
  let output = '';
  let code: number | null = null;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'integrating-guide-'));
    await mkdir(join(home, 'data'));
    await writeFile(join(home, 'contract.pdf'), minimalPdf());
    const blocks = (await shellBlocks('docs/integrating.md')).filter((block) => !NOT_RUN.test(block.split('\n')[0]!));
    const script = ['set -euo pipefail', ...blocks].join('\n');
    const child = spawn('bash', ['-c', script], {
      cwd: root,
      detached: true,
      env: { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), SIGNING_STATION_DATA_DIR: '', npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    // What the blocks left running in the background (the station, the example): the whole group goes.
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // the group has already gone
    }
  }, 240_000);
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('marks every block it does not run with the reason', async () => {
    const skipped = (await shellBlocks('docs/integrating.md')).filter((block) => block.startsWith('# not run'));
    for (const block of skipped) expect(block.split('\n')[0]).toMatch(NOT_RUN);
  });

  it('runs every other block to the end without an error', () => {
    expect(code, output).toBe(0);
  });

  it('prepares a document with the secret, and the download says it is not signed yet', () => {
    expect(output).toMatch(/prepared [A-Za-z0-9_-]{16,}/);
    expect(output).toContain('ERR_SESSION_NOT_SIGNED');
  });

  it('registers the client, starts the example and installs the client package from its tarball', () => {
    expect(output).toMatch(/\bshop\b/);
    expect(output).toMatch(/listening http:\/\/127\.0\.0\.1:8080/);
    expect(output).toContain('service-browser-client.js');
  });
});
