import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/cli/failures/describe-failure.js';
import { StationError } from '../../src/core/errors/station-error.js';
import { runCli } from '../support/station/run-cli.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';

let dir: string;
let pdf: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-failures-'));
  pdf = await writeMinimalPdf(join(dir, 'doc.pdf'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const data = () => ['--data-dir', join(dir, 'data')];

/** One sentence with a stable code, no stack trace, no internal field names. */
function expectClearFailure(result: { code: number | null; stderr: string }, code: number, text: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stderr).toMatch(text);
  expect(result.stderr).not.toMatch(/\n\s+at |ERR_INTERNAL|TypeError|registration\./);
}

describe('signing-station: failures, exit codes, help', () => {
  it('prints its version, and help with the usage exit code when called bare', async () => {
    const version = await runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe((JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version);
    const bare = await runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: signing-station');
    const unknown = await runCli(['verfiy', pdf]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'verfiy'/);
  });

  it('answers a missing input file, a missing --out folder and an existing --out in one sentence (exit 2)', async () => {
    expectClearFailure(await runCli(['sign', join(dir, 'missing.pdf'), '--pkcs12', 'x.p12', ...data()]), 2, /missing\.pdf does not exist.*\(ERR_INPUT_INVALID\)/);
    expectClearFailure(await runCli(['sign', dir, '--pkcs12', 'x.p12', ...data()]), 2, /is not a file/);
    expectClearFailure(await runCli(['sign', pdf, '--out', join(dir, 'no-such-folder', 'out.pdf'), '--pkcs12', 'x.p12', ...data()]), 2, /the folder .*no-such-folder does not exist/);
    await writeFile(join(dir, 'taken.pdf'), 'x');
    expectClearFailure(await runCli(['sign', pdf, '--out', join(dir, 'taken.pdf'), '--pkcs12', 'x.p12', ...data()]), 2, /Refusing to overwrite .*--force/);
    expectClearFailure(await runCli(['sign', pdf, '--pkcs12', join(dir, 'none.p12'), '--no-timestamp', ...data()]), 2, /--pkcs12 .*none\.p12 cannot be read \(ENOENT\)/);
    expectClearFailure(await runCli(['sign', pdf, '--pkcs12', 'x.p12', '--tsa', 'ftp://tsa.example', ...data()]), 2, /--tsa ftp:\/\/tsa\.example is not a usable TSA URL/);
    expectClearFailure(await runCli(['timestamp', join(dir, 'missing.pdf'), '--tsa', 'http://127.0.0.1:9/x', '--out', join(dir, 'x.tsr')]), 2, /missing\.pdf does not exist: name the file to timestamp/);
  });

  it('refuses a hash of the wrong length before any token is opened (exit 2)', async () => {
    expectClearFailure(await runCli(['tokens', 'sign-digest', '--token', 'T', '--cert', '01', '--hash', 'abcd', ...data()]), 2, /--hash must be the sha256 hash in hex: 64 hex digits/);
  });

  it('says that a directory given as a module may be an NSS database (exit 2)', async () => {
    const nssLike = join(dir, 'nssdb');
    await mkdir(nssLike, { recursive: true });
    const listed = await runCli(['tokens', 'list', '--module', nssLike, '--no-known-modules', ...data()]);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toMatch(/is a directory, not a PKCS#11 library; an NSS database .* goes with --nss-db/);
    expectClearFailure(await runCli(['tokens', 'modules', 'add', nssLike, ...data()]), 2, /is a directory, not a PKCS#11 library\. If it is an NSS database .*--nss-database/);
    expect((await runCli(['tokens', 'list', '--nss-db', pdf, '--no-known-modules', ...data()])).stderr).toContain('is not a directory');
  });

  it('maps every other failure to one line with a code: unavailable parts exit 3, refusals 1, internal errors without a stack', () => {
    expect(describeFailure(new StationError('ERR_TOKEN_NOT_FOUND', 'No token T.'))).toEqual({ message: 'No token T. (ERR_TOKEN_NOT_FOUND)', exitCode: 3 });
    expect(describeFailure(new StationError('ERR_KEYCHAIN_UNAVAILABLE', 'No keyring.', { retriable: true })).exitCode).toBe(3);
    expect(describeFailure(new StationError('ERR_KEYCHAIN_UNAVAILABLE', 'Wrong passphrase.', { retriable: false })).exitCode).toBe(1);
    expect(describeFailure(new StationError('ERR_TOKEN_PIN_INCORRECT', 'Wrong PIN.')).exitCode).toBe(1);
    expect(describeFailure(new CommanderError(1, 'commander.unknownOption', 'x'))).toEqual({ message: '', exitCode: 2 });
    expect(describeFailure(new CommanderError(0, 'commander.helpDisplayed', '(help)')).exitCode).toBe(0);
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open '/x/y.pdf'"), { code: 'ENOENT', path: '/x/y.pdf' });
    expect(describeFailure(missing)).toEqual({ message: '/x/y.pdf does not exist (ERR_FILE_NOENT)', exitCode: 1 });
    const internal = describeFailure(new TypeError('Invalid URL'));
    expect(internal.message).toBe('internal error: Invalid URL. Please report it, with what you ran (ERR_INTERNAL)');
    expect(internal.message).not.toContain('    at ');
  });

  it('teaches in help: what is required and an example, for each command that does work', async () => {
    const commands = [
      ['serve'], ['sign'], ['timestamp'], ['audit'], ['tsa', 'chain'], ['clients', 'add'], ['clients', 'update'], ['clients', 'list'], ['clients', 'remove'],
      ['tokens', 'list'], ['tokens', 'sign-digest'], ['tokens', 'modules', 'list'], ['tokens', 'modules', 'add'], ['tokens', 'modules', 'remove'],
      ['tokens', 'store', 'import'], ['tokens', 'store', 'remove'], ['backup'], ['restore'], ['reset'],
    ];
    const helps = await Promise.all(commands.map((args) => runCli([...args, '--help'])));
    for (const [index, help] of helps.entries()) {
      expect(help.code).toBe(0);
      expect(help.stdout, commands[index]!.join(' ')).toMatch(/Examples?:\n  signing-station /);
    }
    const sign = (await runCli(['sign', '--help'])).stdout;
    expect(sign).toContain('Requires the document and a key');
    expect(sign).toContain('--no-timestamp');
    expect(sign).toContain('signing-station sign contract.pdf --token "My Token"');
  }, 120_000); // nineteen node processes on a shared machine
});
