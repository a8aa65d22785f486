import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestCa, createTestSigner } from '../support/pki/test-pki.js';
import { writePkcs12 } from '../support/pkcs11/pkcs11-nss-database.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { runCli } from '../support/station/run-cli.js';

const run = promisify(execFile);
let dir: string;
let full: string;

/** Fills the file system of `mountPoint` to the last byte. */
async function fill(mountPoint: string): Promise<void> {
  await writeFile(join(mountPoint, 'filler'), Buffer.alloc(8 * 1024 * 1024)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOSPC') throw error;
  });
}

// A small tmpfs of the test's own, in the private mount namespace scripts/test-env.sh gives it: never the real disk.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-errors-'));
  full = join(dir, 'full');
  await mkdir(full);
  await run('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', full]);
});

afterAll(async () => {
  await run('umount', [full]).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('errors a person can act on', () => {
  it('a first start on a full disk names the file in the data directory and the space the store needs, and a start once space is freed succeeds', async () => {
    const dataDir = join(full, 'data');
    await fill(full);
    const refused = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(new RegExp(`The disk holding ${dataDir}/station\\.(lock|sqlite) is full \\(\\d+\\.\\d MB free; the store needs at least 16\\.0 MB\\).*\\(ERR_STORE_DISK_FULL\\)`));
    expect(refused.stderr).not.toContain('ERR_INTERNAL');
    await rm(join(full, 'filler'));
    // The half-made directory a full disk left is finished by the next start, not taken for a lost station.
    const listed = await runCli(['clients', 'list', '--data-dir', dataDir]);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
  }, 60_000);

  it('sign --out on a full disk names the path and the space the signed file needs', async () => {
    const ca = await createTestCa();
    const p12 = await writePkcs12(dir, 'signer', await createTestSigner(ca, 'CN=Full Disk,C=EE'), ca, 'pw');
    const input = await writeMinimalPdf(join(dir, 'in.pdf'));
    await rm(join(full, 'data'), { recursive: true, force: true });
    await fill(full);
    const out = join(full, 'out.pdf');
    const signed = await runCli(['sign', input, '--pkcs12', p12, '--pin-stdin', '--no-timestamp', '--out', out, '--data-dir', join(dir, 'data')], { stdin: 'pw\n' });
    expect(signed.code).not.toBe(0);
    expect(signed.stderr).toMatch(new RegExp(`Cannot write ${out}: its disk is full \\(\\d+\\.\\d MB free; the signed file needs about 1\\.0 MB\\).*\\(ERR_SIGNING_DISK_FULL\\)`));
    await rm(join(full, 'filler'));
  }, 60_000);

  it('a damaged passphrase key file is named, with what to do, and reset starts over', async () => {
    const dataDir = join(dir, 'passphrase');
    const env = { SIGNING_STATION_PASSPHRASE: 'a long enough passphrase' };
    const withKeyFile = ['--key-store', 'passphrase', '--data-dir', dataDir];
    expect((await runCli(['clients', 'add', '--client-id', 'shop', ...withKeyFile], { env })).code).toBe(0);
    const keyFile = join(dataDir, 'master-key.enc.json');
    await truncate(keyFile, Math.floor((await readFile(keyFile)).length / 2));
    const damaged = await runCli(['clients', 'list', ...withKeyFile], { env });
    expect(damaged.code).not.toBe(0);
    expect(damaged.stderr).toContain(`The passphrase key file ${keyFile} is damaged (it is not whole JSON)`);
    expect(damaged.stderr).toContain('signing-station reset --yes');
    expect(damaged.stderr).toContain('(ERR_KEYCHAIN_KEY_FILE_DAMAGED)');
    expect((await runCli(['reset', '--yes', ...withKeyFile], { env })).code).toBe(0);
    const fresh = await runCli(['clients', 'list', '--json', ...withKeyFile], { env });
    expect(fresh.code).toBe(0);
    expect(JSON.parse(fresh.stdout)).toEqual([]);
  }, 60_000);
});
