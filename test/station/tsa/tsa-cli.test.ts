import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { x509 } from '../../../src/station/pki/x509.js';
import { runCli, startServe } from '../../support/station/run-cli.js';
import { openssl } from '../../support/tsa/tsa-openssl.js';

describe('signing-station tsa chain / timestamp', () => {
  let dir: string;
  let dataDir: string;
  let serve: ChildProcess;
  let tsaUrl: string;
  let rootPem: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsa-cli-'));
    dataDir = join(dir, 'data');
    const added = await runCli(['clients', 'add', '--client-id', 'cli', '--allowed-ip', '127.0.0.1', '--data-dir', dataDir]);
    expect(added.code, added.stderr).toBe(0);
    const started = await startServe(['--port', '0', '--data-dir', dataDir]);
    serve = started.child;
    tsaUrl = `${started.firstLine.replace(/^listening /, '')}/api/timestamp/cli`;
    // The root a relying party trusts, as `tsa chain` prints it last (the chain itself is the first test's subject).
    const chain = await runCli(['tsa', 'chain', '--data-dir', dataDir]);
    rootPem = join(dir, 'root.pem');
    await writeFile(rootPem, chain.stdout.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!.at(-1)!);
  });
  afterAll(async () => {
    serve.kill('SIGTERM');
    await new Promise((resolve) => serve.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the chain as PEM, TSA certificate first and root last, the same every time', async () => {
    const first = await runCli(['tsa', 'chain', '--data-dir', dataDir]);
    expect(first.code, first.stderr).toBe(0);
    const pems = first.stdout.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
    expect(pems).toHaveLength(2);
    const [tsa, root] = pems.map((pem) => new x509.X509Certificate(pem));
    expect(root!.subject).toBe(root!.issuer);
    expect(tsa!.issuer).toBe(root!.subject);
    expect(tsa!.getExtension(x509.ExtendedKeyUsageExtension)?.usages).toEqual([x509.ExtendedKeyUsage.timeStamping]);
    expect(await tsa!.verify({ publicKey: root!.publicKey, signatureOnly: true })).toBe(true);
    const again = await runCli(['tsa', 'chain', '--data-dir', dataDir]);
    expect(again.stdout).toBe(first.stdout);
    expect(await readFile(rootPem, 'utf8')).toBe(pems[1]);
  });

  it('timestamps a file into a .tsr that openssl verifies, and never overwrites it', async () => {
    const file = join(dir, 'contract.pdf');
    await writeFile(file, randomBytes(50_000));
    const out = join(dir, 'contract.pdf.tsr');
    const made = await runCli(['timestamp', file, '--tsa', tsaUrl, '--out', out, '--hash', 'sha384']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/SHA-384 imprint and nonce checked, serial 0x[0-9a-f]+/);
    const verified = await openssl(['ts', '-verify', '-data', file, '-in', out, '-CAfile', rootPem]);
    expect(verified.code, verified.stderr).toBe(0);

    const before = await readFile(out);
    const again = await runCli(['timestamp', file, '--tsa', tsaUrl, '--out', out]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('ERR_OUTPUT_EXISTS');
    expect(await readFile(out)).toEqual(before);

    const self = await runCli(['timestamp', file, '--tsa', tsaUrl, '--out', file]);
    expect(self.code).toBe(2); // a usage error
    expect(self.stderr).toContain('ERR_INPUT_INVALID');
    expect((await stat(file)).size).toBe(50_000);
  });

  it('fails cleanly, writing nothing, when the TSA refuses the caller or is unreachable, or the file is missing', async () => {
    const file = join(dir, 'doc.txt');
    await writeFile(file, 'doc');
    // Exit 1: the TSA said no; exit 3: it is not there (try again when it is).
    const cases: Array<[string[], string, number]> = [
      [['--tsa', tsaUrl.replace(/cli$/, 'unknown')], 'ERR_TSA_CLIENT_HTTP', 1],
      [['--tsa', 'http://127.0.0.1:1/api/timestamp/cli'], 'ERR_TSA_CLIENT_UNREACHABLE', 3],
    ];
    for (const [args, code, exitCode] of cases) {
      const out = join(dir, `fail-${code}.tsr`);
      const result = await runCli(['timestamp', file, ...args, '--out', out]);
      expect(result.code, result.stderr).toBe(exitCode);
      expect(result.stderr).toContain(code);
      await expect(stat(out)).rejects.toMatchObject({ code: 'ENOENT' });
    }
    const missing = await runCli(['timestamp', join(dir, 'nope'), '--tsa', tsaUrl, '--out', join(dir, 'nope.tsr')]);
    expect(missing.code).toBe(2); // a usage error
    expect(missing.stderr).toContain('does not exist: name the file to timestamp');
  });
});
