import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { minimalPdf } from '../support/signing/signing-test-pdfs.js';
import { startTestStation } from '../support/station/test-station.js';
import { prepareDocument } from '../support/signing/signing-session-client.js';
import { createSoftHsm, softHsmTokenSource } from '../support/pkcs11/pkcs11-softhsm.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** A block that cannot run here says so on its first line, with the reason. */
const NOT_RUN = /^# not run in CI: (.{10,})$/;

/** Whether nothing listens on the port any more (a connection is refused). */
function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

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
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'integrating-guide-'));
    await mkdir(join(home, 'data'));
    await writeFile(join(home, 'contract.pdf'), minimalPdf());
    const blocks = (await shellBlocks('docs/integrating.md')).filter((block) => !NOT_RUN.test(block.split('\n')[0]!));
    const script = ['set -euo pipefail', ...blocks].join('\n');
    const guide = spawn('bash', ['-c', script], {
      cwd: root,
      detached: true,
      env: { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), SIGNING_STATION_DATA_DIR: '', npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    child = guide;
    guide.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    guide.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    code = await new Promise<number | null>((resolve) => guide.once('exit', resolve));
    // What the blocks left running in the background (the station, the example): the whole group goes.
    try {
      process.kill(-guide.pid!, 'SIGTERM');
    } catch {
      // the group has already gone
    }
    // The next describe starts a station on the guide's port: wait until this one has let it go.
    await vi.waitFor(
      async () => {
        if (!(await refusesConnections(27420))) throw new Error('the guide’s station still listens on 27420');
      },
      { timeout: 30_000, interval: 100 },
    );
  }, 240_000);
  afterAll(async () => {
    // A guide that hangs (a station that never answers keeps its `until curl` loop going) must not outlive the
    // test: the hook's timeout ends the wait above, not the script, which would run on after the suite.
    try {
      if (child?.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group has already gone
    }
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

// The guide's prompt-answering block against a consent prompt that is really open: a page's start-signing waits
// for it, and the block's answer lets it through.
describe('docs/integrating.md, its headless prompt answering', () => {
  it('agrees to the open consent prompt, so the waiting start-signing answers with the digest', async () => {
    const home = await mkdtemp(join(tmpdir(), 'integrating-prompts-'));
    const softhsm = await createSoftHsm();
    const [key] = await softhsm.createToken('Signing Token', '1234', [{ id: '01', algorithm: 'RSA-2048', usage: 'signing' }]);
    const dataDir = join(home, 'station');
    const station = await startTestStation({ port: 27420, dataDir }, { tokenSources: [softHsmTokenSource()] });
    try {
      await station.data.clients.upsert({ clientId: 'shop', allowedOrigins: ['https://shop.example'] }, Buffer.from('shop-api-secret-0123456789'));
      const docId = await prepareDocument({ baseUrl: station.baseUrl, clientId: 'shop', secret: 'shop-api-secret-0123456789' }, 'pdf');
      const started = fetch(`${station.baseUrl}/api/signatures/start-signing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://shop.example' },
        body: JSON.stringify({ client_id: 'shop', doc_id: docId, sign_type: 'id-signature', certificate: Buffer.from(key!.certificate.der).toString('base64') }),
      });
      // Waits for the prompt to be open, as a test of the integrator's would (the window's state lists it).
      await expect.poll(() => station.prompts.pending().length, { timeout: 20_000 }).toBe(1);
      const block = (await shellBlocks('docs/integrating.md')).find((candidate) => candidate.includes('admin/api/session'))!;
      const answered = await promisify(execFile)('bash', ['-c', `set -euo pipefail\n${block}`], { cwd: root, env: { ...process.env, HOME: home, SIGNING_STATION_DATA_DIR: dataDir } });
      expect(answered.stderr).toBe('');
      const response = await started;
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'OK', hexDigest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    } finally {
      await station.dispose();
      await softhsm.dispose();
      await rm(home, { recursive: true, force: true });
    }
  }, 60_000);
});
