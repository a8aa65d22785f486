import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSignCommand } from '../../../src/cli/commands/sign-command.js';
import { pkcs12SignerResolver } from '../../../src/cli/commands/pkcs12-signer-resolver.js';
import { StationError } from '../../../src/core/errors/station-error.js';
import { createOpensslTsa, type OpensslTsa } from '../../support/openssl-tsa.js';
import { writeBigPdf, writeMinimalPdf } from '../../support/signing-test-pdfs.js';
import { bouncyCastleCheck, cmsParts, createNssDb, embeddedSignatures, opensslTsVerify, pdfsig, xmlsecVerify } from '../../support/signing-validators.js';
import { extractZip } from '../../support/signing-zip-extract.js';
import { createTestCa, createTestSigner } from '../../support/test-pki.js';
import { cliPath } from '../../support/run-cli.js';

const pem = (label: string, der: Uint8Array): string => `-----BEGIN ${label}-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n')}\n-----END ${label}-----\n`;

/** In-process run with the password handed over directly: for cases that need no real stdin or stderr. */
async function signInProcess(args: string[], password = 'pässword'): Promise<{ code: number; error?: StationError }> {
  const program = new Command('signing-station').exitOverride().configureOutput({ writeErr: () => undefined });
  registerSignCommand(program, (options) => pkcs12SignerResolver(options, async () => Buffer.from(password)));
  try {
    await program.parseAsync(['node', 'signing-station', 'sign', ...args]);
    return { code: 0 };
  } catch (error) {
    if (error instanceof StationError) return { code: 1, error };
    throw error;
  }
}

/** The command in a child process: real stdin for --pin-stdin, real stderr for progress. */
function signCli(args: string[], stdin = ''): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, 'sign', ...args]);
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin.end(stdin);
  });
}

let dir: string;
let rootPath: string;
let nss: string;
let tsa: OpensslTsa;
let tsaHttp: { url: string; close: () => Promise<void> };
let p12: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sign-cli-test-'));
  const ca = await createTestCa();
  rootPath = join(dir, 'root.pem');
  await writeFile(rootPath, ca.pem);
  const signer = await createTestSigner(ca, 'CN=Mari Mägi,O=Signing Station Tests,C=EE', 'RSA-2048');
  await writeFile(join(dir, 'key.pem'), pem('PRIVATE KEY', signer.pkcs8));
  await writeFile(join(dir, 'cert.pem'), signer.pem);
  p12 = join(dir, 'signer.p12');
  await promisify(execFile)('openssl', ['pkcs12', '-export', '-in', join(dir, 'cert.pem'), '-inkey', join(dir, 'key.pem'), '-certfile', rootPath, '-out', p12, '-passout', 'pass:pässword']);
  [tsa, nss] = await Promise.all([createOpensslTsa(dir), createNssDb(join(dir, 'nss'), ca.pem)]);
  tsaHttp = await tsa.serveHttp();
});

afterAll(async () => {
  await tsaHttp?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('signing-station sign', () => {
  it('signs a PDF from a PKCS#12 file with the password on stdin, a reason, a visible field and an HTTP TSA', async () => {
    const input = await writeMinimalPdf(join(dir, 'in.pdf'));
    const out = join(dir, 'out.pdf');
    const result = await signCli([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--reason', 'Agreed', '--visible', '--tsa', tsaHttp.url], 'pässword\n');
    expect(result.code, result.stderr).toBe(0);
    const report = await pdfsig(nss, out);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]!.valid && report.signatures[0]!.trusted && report.signatures[0]!.totalDocumentSigned, report.output).toBe(true);
    const pdf = await readFile(out);
    expect(pdf.toString('latin1')).toContain('/Reason (Agreed)');
    const [e] = embeddedSignatures(pdf);
    const parts = cmsParts(e!.cms);
    expect((await opensslTsVerify(parts.signatureValue, parts.timestampToken!, tsa.rootPath)).code).toBe(0);
    const bc = await bouncyCastleCheck(e!.cms, e!.signedContent, rootPath, tsa.rootPath);
    expect(bc.code, bc.stdout).toBe(0);
  });

  it('signs any other file as ASiC-E', async () => {
    const input = join(dir, 'note.txt');
    await writeFile(input, 'note');
    const out = join(dir, 'note.asice');
    const result = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--reason', 'Seen', '--no-timestamp']);
    expect(result.code, result.error?.message).toBe(0);
    const root = join(dir, 'note-unzipped');
    await extractZip(out, root);
    const xmlsec = await xmlsecVerify(root, 'META-INF/signatures0.xml', rootPath);
    expect(xmlsec.code, xmlsec.stderr).toBe(0);
  });

  it('never overwrites: an existing --out is refused unless --force, and the input never', async () => {
    const input = await writeMinimalPdf(join(dir, 'keep.pdf'));
    const out = join(dir, 'existing.pdf');
    await writeFile(out, 'precious');
    const refused = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--no-timestamp']);
    expect(refused.error?.code).toBe('ERR_SIGNING_OUTPUT_EXISTS');
    expect(await readFile(out, 'utf8')).toBe('precious');
    const before = await readFile(input);
    const self = await signInProcess([input, '--out', input, '--force', '--pkcs12', p12, '--pin-stdin', '--no-timestamp']);
    expect(self.error?.code).toBe('ERR_SIGNING_OUTPUT_EXISTS');
    expect(await readFile(input)).toEqual(before);
    const forced = await signInProcess([input, '--out', out, '--force', '--pkcs12', p12, '--pin-stdin', '--no-timestamp']);
    expect(forced.code, forced.error?.message).toBe(0);
    expect((await pdfsig(nss, out)).signatures[0]!.valid).toBe(true);
    expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('fails cleanly on a wrong password, a missing timestamp choice, and an unavailable token', async () => {
    const input = await writeMinimalPdf(join(dir, 'fail.pdf'));
    const out = join(dir, 'fail-out.pdf');
    const wrong = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--no-timestamp'], 'nope');
    expect(wrong.error?.code).toBe('ERR_SIGNING_PKCS12_UNREADABLE');
    const noTsa = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin']);
    expect(noTsa.error?.code).toBe('ERR_INPUT_INVALID');
    expect(noTsa.error?.message).toContain('--tsa');
    const token = await signInProcess([input, '--out', out, '--token', 'TestToken', '--cert', '01', '--no-timestamp']);
    expect(token.error?.message).toContain('PKCS#11');
    const visibleAsice = await signInProcess([join(dir, 'note.txt'), '--out', out, '--pkcs12', p12, '--visible', '--no-timestamp']);
    expect(visibleAsice.error?.message).toContain('--visible');
    await expect(stat(out)).rejects.toThrow();
  });

  it('takes --baseline: a timestamped level needs --tsa, --no-timestamp is B-B only, unknown levels are refused', async () => {
    const input = await writeMinimalPdf(join(dir, 'baseline.pdf'));
    const out = join(dir, 'baseline-out.pdf');
    const noTimestamp = await signInProcess([input, '--out', out, '--pkcs12', p12, '--baseline', 'B-LT', '--no-timestamp']);
    expect(noTimestamp.error?.message).toContain('--no-timestamp is the B-B level; --baseline B-LT needs a timestamp');
    const noTsa = await signInProcess([input, '--out', out, '--pkcs12', p12, '--baseline', 'B-LTA']);
    expect(noTsa.error?.message).toContain('Give --tsa URL for a timestamped (B-LTA) signature');
    await expect(signInProcess([input, '--out', out, '--pkcs12', p12, '--baseline', 'B-X', '--no-timestamp'])).rejects.toThrow(/Allowed choices are B-B, B-T, B-LT, B-LTA/);
    await expect(stat(out)).rejects.toThrow();
    const bb = await signInProcess([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--baseline', 'B-B']);
    expect(bb.code, bb.error?.message).toBe(0);
    expect(cmsParts(embeddedSignatures(await readFile(out))[0]!.cms).timestampToken).toBeUndefined();
  });

  it('shows progress on stderr for big files', async () => {
    const input = await writeBigPdf(join(dir, 'big.pdf'), 24 * 1024 * 1024);
    const out = join(dir, 'big-signed.pdf');
    const result = await signCli([input, '--out', out, '--pkcs12', p12, '--pin-stdin', '--no-timestamp'], 'pässword\n');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('signing: 50%');
    expect(result.stderr).toContain('signing: 100%');
    const report = await pdfsig(nss, out);
    expect(report.signatures[0]!.valid && report.signatures[0]!.totalDocumentSigned, report.output).toBe(true);
  });
});
