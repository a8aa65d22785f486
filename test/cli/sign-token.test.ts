import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSignerResolver } from '../../src/cli/commands/token-signer-resolver.js';
import type { SignCommandOptions } from '../../src/cli/commands/signer-resolver.js';
import { createOpensslTsa, type OpensslTsa } from '../support/tsa/openssl-tsa.js';
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm, type SoftHsmKey } from '../support/pkcs11/pkcs11-softhsm.js';
import { runCli, spawnCli, spawnCliOnTerminal } from '../support/station/run-cli.js';
import { withStationData } from '../../src/cli/with-station-data.js';
import { ProgressReporter } from '../../src/cli/progress/progress-reporter.js';
import { writeBigPdf } from '../support/signing/signing-test-pdfs.js';
import { cmsParts, createNssDb, embeddedSignatures, opensslTsVerify, pdfsig } from '../support/signing/signing-validators.js';
import { writeMinimalPdf } from '../support/signing/signing-test-pdfs.js';

const PIN = '4321';
const LABEL = 'Sign Token';
let softhsm: SoftHsm;
let keys: SoftHsmKey[];
let dir: string;
let nss: string;
let tsa: OpensslTsa;
let tsaHttp: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  softhsm = await createSoftHsm();
  keys = await softhsm.createToken(LABEL, PIN, [
    { id: '0a', algorithm: 'RSA-2048', usage: 'signing' },
    { id: '0b', algorithm: 'P-256', usage: 'authentication' },
    { id: '0c', algorithm: 'P-256', usage: 'signing' },
  ]);
  dir = await mkdtemp(join(tmpdir(), 'sign-token-'));
  [nss, tsa] = await Promise.all([createNssDb(join(dir, 'nss'), softhsm.ca.pem), createOpensslTsa(dir)]);
  tsaHttp = await tsa.serveHttp();
});

afterAll(async () => {
  await tsaHttp?.close();
  await softhsm?.dispose();
  await rm(dir, { recursive: true, force: true });
});

const onlySoftHsm = ['--no-known-modules', '--module', SOFTHSM_MODULE];

function sign(args: string[], stdin = '') {
  return runCli(['sign', ...args, '--data-dir', join(dir, 'data'), ...onlySoftHsm], { stdin, env: { SOFTHSM2_CONF: softhsm.conf } });
}

/** The token's PIN status as `tokens list` reports it (retries, count low, final try, locked). */
async function tokenPinTries(): Promise<unknown> {
  const listed = await runCli(['tokens', 'list', '--json', '--data-dir', join(dir, 'data'), ...onlySoftHsm], { env: { SOFTHSM2_CONF: softhsm.conf } });
  return (JSON.parse(listed.stdout) as { tokens: Array<{ label: string; pin: unknown }> }).tokens.find((t) => t.label === LABEL)?.pin;
}

describe('signing-station sign --token --cert', () => {
  it('signs a PDF with an RSA key on a PKCS#11 token, PIN from stdin, timestamped: pdfsig and openssl ts accept it', async () => {
    const input = await writeMinimalPdf(join(dir, 'rsa.pdf'));
    const out = join(dir, 'rsa-signed.pdf');
    const result = await sign([input, '--out', out, '--token', LABEL, '--cert', '0a', '--pin-stdin', '--reason', 'Approved', '--tsa', tsaHttp.url], `${PIN}\n`);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr + result.stdout).not.toContain(PIN);
    const report = await pdfsig(nss, out);
    expect(report.signatures).toHaveLength(1);
    const [signature] = report.signatures;
    expect(signature!.valid && signature!.trusted && signature!.totalDocumentSigned, report.output).toBe(true);
    expect(signature!.text).toContain(keys[0]!.certificate.certificate.subject.match(/CN=([^,]+)/)![1]!);
    const [embedded] = embeddedSignatures(await readFile(out));
    const parts = cmsParts(embedded!.cms);
    expect((await opensslTsVerify(parts.signatureValue, parts.timestampToken!, tsa.rootPath)).code).toBe(0);
  });

  it('embeds the issuers of a token certificate from the station\'s trusted issuers: the chain reaches the root', async () => {
    const input = await writeMinimalPdf(join(dir, 'chain.pdf'));
    const config = join(dir, 'chain-config.json');
    await writeFile(join(dir, 'issuers.pem'), softhsm.ca.pem);
    await writeFile(config, JSON.stringify({ identity: { trustedIssuers: [join(dir, 'issuers.pem')] } }));
    const bare = join(dir, 'chain-bare.pdf');
    const withChain = join(dir, 'chain-signed.pdf');
    expect((await sign([input, '--out', bare, '--token', LABEL, '--cert', '0a', '--pin-stdin', '--no-timestamp'], PIN)).code).toBe(0);
    const result = await sign([input, '--out', withChain, '--config', config, '--token', LABEL, '--cert', '0a', '--pin-stdin', '--no-timestamp'], PIN);
    expect(result.code, result.stderr).toBe(0);
    const certificates = async (file: string) => cmsParts(embeddedSignatures(await readFile(file))[0]!.cms).certificates.map((c) => c.toString('base64'));
    expect(await certificates(bare)).toEqual([Buffer.from(keys[0]!.certificate.der).toString('base64')]);
    expect(await certificates(withChain)).toEqual([keys[0]!.certificate.der, softhsm.ca.der].map((c) => Buffer.from(c).toString('base64')));
  });

  it('signs with an EC key on the token, found by its id in any case', async () => {
    const input = await writeMinimalPdf(join(dir, 'ec.pdf'));
    const out = join(dir, 'ec-signed.pdf');
    const result = await sign([input, '--out', out, '--token', LABEL, '--cert', '0C', '--pin-stdin', '--no-timestamp'], PIN);
    expect(result.code, result.stderr).toBe(0);
    const report = await pdfsig(nss, out);
    expect(report.signatures[0]!.valid && report.signatures[0]!.trusted, report.output).toBe(true);
  });

  it('refuses a wrong or missing PIN, an authentication certificate and an unknown token, writing nothing', async () => {
    const input = await writeMinimalPdf(join(dir, 'refused.pdf'));
    const out = join(dir, 'refused-signed.pdf');
    const wrong = await sign([input, '--out', out, '--token', LABEL, '--cert', '0a', '--pin-stdin', '--no-timestamp'], '987654\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/ERR_TOKEN_PIN_INCORRECT/);
    expect(wrong.stderr + wrong.stdout).not.toContain('987654');
    const none = await sign([input, '--out', out, '--token', LABEL, '--cert', '0a', '--no-timestamp']);
    expect(none.stderr).toMatch(/--pin-stdin.*ERR_TOKEN_PIN_REQUIRED/);
    const authentication = await sign([input, '--out', out, '--token', LABEL, '--cert', '0b', '--pin-stdin', '--no-timestamp'], PIN);
    expect(authentication.stderr).toMatch(/for authentication.*ERR_INPUT_INVALID/);
    const unknown = await sign([input, '--out', out, '--token', 'No Such Token', '--cert', '0a', '--pin-stdin', '--no-timestamp'], PIN);
    expect(unknown.stderr).toMatch(/ERR_TOKEN_NOT_FOUND/);
    const noCert = await sign([input, '--out', out, '--token', LABEL, '--pin-stdin', '--no-timestamp'], PIN);
    expect(noCert.stderr).toMatch(/--cert.*ERR_INPUT_INVALID/);
    await expect(stat(out)).rejects.toThrow();
    expect((await readdir(dir)).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('reads the PIN only when the token asks, keeps it while it may sign again, and zeroes it on release', async () => {
    const options: SignCommandOptions = {
      timestamp: false,
      token: LABEL,
      cert: '0a',
      pinStdin: true,
      dataDir: join(dir, 'data'),
      module: [SOFTHSM_MODULE],
      nssDb: [],
      knownModules: false,
    };
    await withStationData(options, async (data, config) => {
      const pin = Buffer.from(PIN);
      let reads = 0;
      const context = { data, config, progress: new ProgressReporter(), readSecret: async () => (reads++, pin) };
      const signer = await tokenSignerResolver(options, context);
      expect(reads).toBe(0);
      expect(await signer.sign(new Uint8Array(32), 'SHA-256')).toHaveLength(256);
      expect(reads).toBe(1);
      expect(pin.toString()).toBe(PIN); // kept while the signer may still sign
      await signer.release();
      expect(pin.every((byte) => byte === 0)).toBe(true);

      let failingReads = 0;
      await expect(tokenSignerResolver({ ...options, cert: '0b' }, { ...context, readSecret: async () => (failingReads++, Buffer.from(PIN)) })).rejects.toMatchObject({
        code: 'ERR_INPUT_INVALID',
      });
      expect(failingReads).toBe(0);
      context.progress.end();
    });
  });

  it('refuses an empty PIN before it reaches the token: no try is spent', async () => {
    const input = await writeMinimalPdf(join(dir, 'empty-pin.pdf'));
    const before = await tokenPinTries();
    const result = await sign([input, '--token', LABEL, '--cert', '0a', '--pin-stdin', '--no-timestamp'], '\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/PIN is empty; nothing was sent to the token.*ERR_TOKEN_PIN_EMPTY/);
    expect(await tokenPinTries()).toEqual(before);
  });
});

describe('signing-station sign on a terminal, in steps, and after a kill', () => {
  const stationArgs = () => ['--data-dir', join(dir, 'data'), ...onlySoftHsm];
  const env = () => ({ SOFTHSM2_CONF: softhsm.conf });

  it('asks for the PIN on the terminal without ever showing it, and signs', async () => {
    const input = await writeMinimalPdf(join(dir, 'terminal.pdf'));
    const run = spawnCliOnTerminal(['sign', input, '--token', LABEL, '--cert', '0a', '--no-timestamp', ...stationArgs()], env());
    const prompt = await run.waitFor(/PIN for Sign Token.*: /);
    expect(prompt).not.toContain(PIN);
    run.child.stdin.write(`${PIN}\r`);
    expect(await run.exit, run.output()).toBe(0);
    expect(run.output()).toContain(`signed: ${join(dir, 'terminal.signed.pdf')}`);
    expect(run.output()).not.toContain(PIN);
    const report = await pdfsig(nss, join(dir, 'terminal.signed.pdf'));
    expect(report.signatures[0]!.valid && report.signatures[0]!.trusted, report.output).toBe(true);
  });

  it('names each step when piped (waiting for PIN, signing, timestamping, writing), reading the PIN line without waiting for the pipe to end', async () => {
    const input = await writeMinimalPdf(join(dir, 'steps.pdf'));
    const run = spawnCli(['sign', input, '--token', LABEL, '--cert', '0a', '--pin-stdin', ...stationArgs()], env());
    await run.waitFor(/signing-station: waiting for PIN\n/);
    run.child.stdin.write(`${PIN}\n`); // the pipe stays open: the command must not wait for its end
    expect(await run.exit, run.output()).toBe(0);
    run.child.stdin.end();
    const steps = run.output().split('\n').filter((line) => line.startsWith('signing-station: ')).map((line) => line.replace(/ \d+%$/, ''));
    // On a loaded machine the quiet first second may end while hashing or just before the PIN is asked: those
    // steps then show first. The PIN wait and what follows it always do, in this order.
    const sequence = steps.filter((step, index) => step !== steps[index - 1]);
    expect(sequence.slice(-4)).toEqual(['signing-station: waiting for PIN', 'signing-station: signing', 'signing-station: timestamping', 'signing-station: writing']);
    expect(run.output()).not.toContain('\r');
  });

  it('removes the staging file a killed run left, at the next run in that folder, never one a live writer holds', async () => {
    const folder = await mkdtemp(join(dir, 'killed-'));
    const input = await writeBigPdf(join(folder, 'big.pdf'), 8 * 1024 * 1024);
    const killed = spawnCli(['sign', input, '--token', LABEL, '--cert', '0a', '--pin-stdin', '--no-timestamp', ...stationArgs()], env());
    await killed.waitFor(/waiting for PIN/);
    const partials = async () => (await readdir(folder)).filter((name) => name.endsWith('.partial'));
    const [left] = await partials();
    expect(left).toMatch(new RegExp(`^\\.big\\.signed\\.pdf\\.${killed.child.pid}-[0-9a-f]{12}\\.partial$`));
    killed.child.kill('SIGKILL');
    await killed.exit;
    expect(await partials()).toEqual([left]);
    // A live writer's staging file (this test process's pid): never touched.
    const live = `.other.pdf.${process.pid}-0123456789ab.partial`;
    await writeFile(join(folder, live), 'being written');
    const next = await sign([await writeMinimalPdf(join(folder, 'next.pdf')), '--cert', '0a', '--token', LABEL, '--pin-stdin', '--no-timestamp'], `${PIN}\n`);
    expect(next.code, next.stderr).toBe(0);
    expect(await partials()).toEqual([live]);
  });

  it('logs every CLI signature attempt in the audit log, signed or failed, as started by the CLI', async () => {
    const signedInput = await writeMinimalPdf(join(dir, 'audited.pdf'));
    const failedInput = await writeMinimalPdf(join(dir, 'audited-wrong-pin.pdf'));
    expect((await sign([signedInput, '--token', LABEL, '--cert', '0a', '--pin-stdin', '--no-timestamp'], `${PIN}\n`)).code).toBe(0);
    expect((await sign([failedInput, '--token', LABEL, '--cert', '0a', '--pin-stdin', '--no-timestamp'], '999999\n')).code).toBe(1);
    const listed = await runCli(['audit', '--json', '--data-dir', join(dir, 'data')]);
    const entries = JSON.parse(listed.stdout) as Array<{ source: string; outcome: string; method: string; detail: string | null; documentName: string; signer: string }>;
    const mine = entries.filter((e) => e.documentName.startsWith('audited'));
    expect(mine).toEqual([
      expect.objectContaining({ source: 'cli', outcome: 'failed', method: 'pkcs11', documentName: 'audited-wrong-pin.pdf', detail: 'ERR_TOKEN_PIN_INCORRECT' }),
      expect.objectContaining({ source: 'cli', outcome: 'signed', method: 'pkcs11', documentName: 'audited.pdf', signer: expect.stringContaining('CN=Sign Token 0a') }),
    ]);
    const text = await runCli(['audit', '--limit', '2', '--data-dir', join(dir, 'data')]);
    expect(text.stdout).toMatch(/signed +pkcs11 +from=cli .*audited\.pdf/);
  });
});

