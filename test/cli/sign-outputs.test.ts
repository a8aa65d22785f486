import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { createTestCa, createTestSigner } from '../support/pki/test-pki.js';
import { writePkcs12 } from '../support/pkcs11/pkcs11-nss-database.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';
import { cliPath, runCli } from '../support/station/run-cli.js';

let dir: string;
let p12: string;
const dataDir = (): string => join(dir, 'data');

/** `sign` in a child process with the PKCS#12 password on stdin and no timestamp. */
function sign(input: string, extra: string[] = []): { exited: Promise<{ code: number | null; stderr: string }>; kill: () => void } {
  const child = spawn(process.execPath, [cliPath, 'sign', input, '--pkcs12', p12, '--pin-stdin', '--no-timestamp', '--data-dir', dataDir(), ...extra]);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end('pw\n');
  return { exited: new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr }))), kill: () => child.kill('SIGKILL') };
}

/** Resolves once the store's audit log holds an entry `started` for `documentName` (read-only, beside the writer). */
async function startedEntryFor(documentName: string): Promise<void> {
  const db = new sqlite3.Database(join(dataDir(), 'station.sqlite'), sqlite3.OPEN_READONLY);
  try {
    for (;;) {
      const row = await new Promise<unknown>((resolve) =>
        db.get("SELECT 1 FROM audit_log WHERE outcome = 'started' AND document_name = ?", [documentName], (error, found) => resolve(error ? undefined : found)),
      );
      if (row) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    db.close();
  }
}

/** Resolves once `directory` holds a name `matches` accepts. */
async function waitForEntry(directory: string, matches: (name: string) => boolean): Promise<void> {
  while (!(await readdir(directory)).some(matches)) await new Promise((resolve) => setTimeout(resolve, 10));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-sign-outputs-'));
  const ca = await createTestCa();
  p12 = await writePkcs12(dir, 'signer', await createTestSigner(ca, 'CN=Outputs Tester,C=EE'), ca, 'pw');
  // The store exists before the runs below, as on any machine that signed once.
  expect((await runCli(['audit', '--data-dir', dataDir()])).code).toBe(0);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('sign outputs and their audit entries', () => {
  it('two runs at once on the same input both succeed, under two numbered names', async () => {
    const input = await writeMinimalPdf(join(dir, 'same.pdf'));
    const runs = await Promise.all([sign(input).exited, sign(input).exited]);
    expect(runs.map((run) => run.code)).toEqual([0, 0]);
    const written = runs.map((run) => /signed: (.*)\n/.exec(run.stderr)?.[1]).sort();
    expect(written).toEqual([join(dir, 'same.signed (2).pdf'), join(dir, 'same.signed.pdf')]);
    for (const path of written) expect((await readFile(path!)).includes('/ByteRange')).toBe(true);
    const audit = JSON.parse((await runCli(['audit', '--json', '--data-dir', dataDir()])).stdout) as { documentName: string; outcome: string }[];
    expect(audit.filter((entry) => entry.documentName === 'same.pdf').map((entry) => entry.outcome)).toEqual(['signed', 'signed']);
  }, 60_000);

  it('an explicit --out over an existing file is still refused', async () => {
    const input = await writeMinimalPdf(join(dir, 'explicit.pdf'));
    await writeFile(join(dir, 'taken.pdf'), 'mine');
    const run = await sign(input, ['--out', join(dir, 'taken.pdf')]).exited;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Refusing to overwrite');
    expect(await readFile(join(dir, 'taken.pdf'), 'utf8')).toBe('mine');
  });

  it('a run killed mid-way leaves the input intact, no file under a final name, and an audit entry started, not completed', async () => {
    const input = join(dir, 'large.bin');
    const content = randomBytes(96 * 1024 * 1024);
    await writeFile(input, content);
    const run = sign(input);
    await startedEntryFor('large.bin');
    // The run is writing its temporary file when it is killed.
    await waitForEntry(dir, (name) => name.startsWith('.large.asice.') && name.endsWith('.partial'));
    run.kill();
    await run.exited;
    const audit = await runCli(['audit', '--data-dir', dataDir()]);
    expect(audit.stdout).toMatch(/started, not completed .*large\.bin/);
    expect(createHash('sha256').update(await readFile(input)).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
    const left = (await readdir(dir)).filter((name) => name.includes('large.') && name !== 'large.bin');
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^\.large\.asice\.\d+-[0-9a-f]{12}\.partial$/);

    // The next run in the folder removes the killed run's temporary file and writes the first default name.
    const next = await sign(await writeMinimalPdf(join(dir, 'next.pdf'))).exited;
    expect(next.code).toBe(0);
    expect((await readdir(dir)).filter((name) => name.includes('large.') && name !== 'large.bin')).toEqual([]);
  }, 60_000);
});
