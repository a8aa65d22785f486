// `signing-station timestamp FILE` alone, as `sign` works: the station's own TSA in process, FILE.tsr beside the
// file (numbered when taken), checked by `verify` with both files in either order, and on another data directory.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentVerification } from '../../src/core/schemas/verification-report.js';
import { runCli } from '../support/station/run-cli.js';
import { createOpensslTsa, type OpensslTsa } from '../support/tsa/openssl-tsa.js';
import { openssl } from '../support/tsa/tsa-openssl.js';

let dir: string;
let file: string;
let home: string;
let elsewhere: string;
let reference: OpensslTsa;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'timestamp-cli-'));
  [home, elsewhere] = [join(dir, 'home'), join(dir, 'elsewhere')];
  file = join(dir, 'minutes.txt');
  await writeFile(file, 'minutes of the meeting\n');
  reference = await createOpensslTsa(dir);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function verify(args: string[], dataDir: string): Promise<{ code: number | null; report: DocumentVerification; stderr: string }> {
  const result = await runCli(['verify', ...args, '--json', '--data-dir', dataDir]);
  return { code: result.code, report: JSON.parse(result.stdout || 'null') as DocumentVerification, stderr: result.stderr };
}

describe('signing-station timestamp FILE', () => {
  it('timestamps with the station’s own TSA into FILE.tsr beside it, then FILE (2).tsr; verify takes both files in either order', async () => {
    const first = await runCli(['timestamp', file, '--data-dir', home]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`timestamp saved to ${file}.tsr`);
    const second = await runCli(['timestamp', file, '--data-dir', home]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`timestamp saved to ${file} (2).tsr`);
    expect((await stat(`${file} (2).tsr`)).size).toBeGreaterThan(0);

    for (const args of [[file, `${file}.tsr`], [`${file}.tsr`, file], [`${file} (2).tsr`, '--data', file]]) {
      const { code, report, stderr } = await verify(args, home);
      expect(code, stderr + JSON.stringify(report)).toBe(0);
      expect(report).toMatchObject({ format: 'timestamp', indication: 'TOTAL-PASSED', signatures: [expect.objectContaining({ kind: 'RFC 3161 timestamp', signer: expect.stringContaining('Signing Station TSA') })] });
    }
  });

  it('on another data directory the token is INDETERMINATE and says to trust the other station’s certificate; a changed file fails', async () => {
    const { code, report } = await verify([file, `${file}.tsr`], elsewhere);
    expect(code).toBe(4);
    expect(report.signatures[0]!.verdict).toMatchObject({ indication: 'INDETERMINATE', reason: 'timestamp by another Signing Station; trust its certificate to accept it' });

    const changed = join(dir, 'changed.txt');
    await writeFile(changed, 'minutes of another meeting\n');
    const tampered = await verify([`${file}.tsr`, changed], home);
    expect(tampered.code).toBe(1);
    expect(tampered.report.signatures[0]!.verdict).toMatchObject({ indication: 'TOTAL-FAILED', subIndication: 'HASH_FAILURE' });
  });

  it('--out names the reply, never an existing file; --tsa-url asks a remote TSA', async () => {
    const taken = join(dir, 'taken.tsr');
    await writeFile(taken, 'keep me');
    const refused = await runCli(['timestamp', file, '--out', taken, '--data-dir', home]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/already exists; it is never overwritten/);
    expect(await readFile(taken, 'utf8')).toBe('keep me');

    const http = await reference.serveHttp();
    try {
      const out = join(dir, 'remote.tsr');
      const made = await runCli(['timestamp', file, '--tsa-url', http.url, '--out', out, '--data-dir', home]);
      expect(made.code, made.stderr).toBe(0);
      const checked = await openssl(['ts', '-verify', '-data', file, '-in', out, '-CAfile', reference.rootPath]);
      expect(checked.code, checked.stderr).toBe(0);
    } finally {
      await http.close();
    }
  });

  it('a pair verify cannot order, or a second file with --data too, is a usage error', async () => {
    const other = join(dir, 'other.txt');
    await writeFile(other, 'text');
    const ambiguous = await runCli(['verify', file, other, '--data-dir', home]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/Cannot tell which of .* is the timestamp or signature/);
    const twice = await runCli(['verify', file, `${file}.tsr`, '--data', file, '--data-dir', home]);
    expect(twice.code).toBe(2);
  });
});
