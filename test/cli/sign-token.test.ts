import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenSignerResolver } from '../../src/cli/commands/token-signer-resolver.js';
import type { SignCommandOptions } from '../../src/cli/commands/signer-resolver.js';
import { createOpensslTsa, type OpensslTsa } from '../support/openssl-tsa.js';
import { createSoftHsm, SOFTHSM_MODULE, type SoftHsm, type SoftHsmKey } from '../support/pkcs11-softhsm.js';
import { runCli } from '../support/run-cli.js';
import { cmsParts, createNssDb, embeddedSignatures, opensslTsVerify, pdfsig } from '../support/signing-validators.js';
import { writeMinimalPdf } from '../support/signing-test-pdfs.js';

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

  it('zeroes the PIN read from stdin when the signer is released, and when resolving fails', async () => {
    const options: SignCommandOptions = {
      out: join(dir, 'unused.pdf'),
      timestamp: false,
      token: LABEL,
      cert: '0a',
      pinStdin: true,
      dataDir: join(dir, 'data'),
      module: [SOFTHSM_MODULE],
      nssDb: [],
      knownModules: false,
    };
    const pin = Buffer.from(PIN);
    const signer = await tokenSignerResolver(options, async () => pin);
    const signature = await signer.sign(new Uint8Array(32), 'SHA-256');
    expect(signature).toHaveLength(256);
    expect(pin.toString()).toBe(PIN); // kept while the signer may still sign
    await signer.release();
    expect(pin.every((byte) => byte === 0)).toBe(true);

    const failing = Buffer.from(PIN);
    await expect(tokenSignerResolver({ ...options, cert: '0b' }, async () => failing)).rejects.toMatchObject({ code: 'ERR_INPUT_INVALID' });
    expect(failing.every((byte) => byte === 0)).toBe(true);
  });
});
