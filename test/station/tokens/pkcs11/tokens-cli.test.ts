import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenDescriptionSchema } from '../../../../src/core/schemas/token-description.js';
import { createSoftHsm, SOFTHSM_MODULE, SOFTHSM_MODULE_FILE, type SoftHsm, type SoftHsmKey } from '../../../support/pkcs11/pkcs11-softhsm.js';
import { writePkcs12 } from '../../../support/pkcs11/pkcs11-nss-database.js';
import { createTestSigner } from '../../../support/pki/test-pki.js';
import { verifyWithCertificate } from '../../../support/pkcs11/pkcs11-verify.js';

const PIN = '4321';
let softhsm: SoftHsm;
let keys: SoftHsmKey[];
let dataDir: string;

beforeAll(async () => {
  softhsm = await createSoftHsm();
  keys = await softhsm.createToken('CLI Token', PIN, [
    { id: '0a', algorithm: 'RSA-2048', usage: 'signing' },
    { id: '0b', algorithm: 'P-256', usage: 'authentication' },
  ]);
  dataDir = await mkdtemp(join(tmpdir(), 'tokens-cli-'));
});

afterAll(async () => {
  await softhsm?.dispose();
  await rm(dataDir, { recursive: true, force: true });
});

function cli(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/pkcs11/pkcs11-cli.ts', 'tokens', ...args, '--data-dir', dataDir], {
      env: { ...process.env, SOFTHSM2_CONF: softhsm.conf },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const onlySoftHsm = ['--no-known-modules', '--module', SOFTHSM_MODULE];

describe('signing-station tokens (CLI)', () => {
  it('tokens list --json gives tokens, certificates, key usage and PIN status', async () => {
    const { code, stdout, stderr } = await cli(['list', '--json', ...onlySoftHsm]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const listing = JSON.parse(stdout) as { tokens: unknown[]; problems: unknown[] };
    const tokens = listing.tokens.map((t) => tokenDescriptionSchema.parse(t));
    const token = tokens.find((t) => t.label === 'CLI Token')!;
    expect(token.pin).toMatchObject({ locked: false, finalTry: false });
    expect(token.certificates.map((c) => [c.id, c.usage, c.keyAlgorithm])).toEqual([
      ['0a', 'signing', 'RSA'],
      ['0b', 'authentication', 'EC'],
    ]);
    expect(tokens.find((t) => t.kind === 'store')).toBeUndefined(); // an empty station store is not listed
  });

  it('sign-digest signs with the PIN from stdin (RSA PKCS#1, and ECDSA as DER)', async () => {
    const message = Buffer.from('signed from the command line');
    const hash = createHash('sha256').update(message).digest('hex');
    const rsa = await cli(['sign-digest', '--token', 'CLI Token', '--cert', '0a', '--hash', hash, '--pin-stdin', ...onlySoftHsm], `${PIN}\n`);
    expect(rsa.stderr).toBe('');
    expect(verifyWithCertificate(keys[0]!.certificate.der, 'RSASSA-PKCS1-v1_5', 'SHA-256', message, Buffer.from(rsa.stdout.trim(), 'base64'))).toBe(true);
    const ec = await cli(['sign-digest', '--token', 'CLI Token', '--cert', '0B', '--hash', hash, '--ecdsa-format', 'der', '--pin-stdin', '--json', ...onlySoftHsm], PIN);
    const result = JSON.parse(ec.stdout) as { scheme: string; signature: string };
    expect(result.scheme).toBe('ECDSA');
    expect(verifyWithCertificate(keys[1]!.certificate.der, 'ECDSA', 'SHA-256', message, Buffer.from(result.signature, 'base64'), 'der')).toBe(true);
  });

  it('a wrong PIN exits 1 with the typed error and never echoes the PIN; no PIN at all says how to give one', async () => {
    const hash = '00'.repeat(32);
    const wrong = await cli(['sign-digest', '--token', 'CLI Token', '--cert', '0a', '--hash', hash, '--pin-stdin', ...onlySoftHsm], '987654\n');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/ERR_TOKEN_PIN_INCORRECT/);
    expect(wrong.stderr + wrong.stdout).not.toContain('987654');
    const none = await cli(['sign-digest', '--token', 'CLI Token', '--cert', '0a', '--hash', hash, ...onlySoftHsm]);
    expect(none.stderr).toMatch(/--pin-stdin.*ERR_TOKEN_PIN_REQUIRED/);
    const unknown = await cli(['sign-digest', '--token', 'No Such Token', '--cert', '0a', '--hash', hash, ...onlySoftHsm]);
    expect(unknown.stderr).toMatch(/tokens modules add.*ERR_TOKEN_NOT_FOUND/);
  });

  it('modules add checks the library, persists it, and tokens list then loads it; remove forgets it', async () => {
    const untrusted = await cli(['modules', 'add', '/etc/hostname']);
    expect(untrusted.code).toBe(1);
    const sha256 = /SHA-256 ([0-9a-f]{64})/.exec(untrusted.stderr)?.[1];
    expect(untrusted.stderr).toMatch(/outside the directories the station loads modules from/);
    const bogus = await cli(['modules', 'add', '/etc/hostname', '--trust-sha256', sha256!]);
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toMatch(/not a PKCS#11 library/);
    expect((await cli(['modules', 'add', SOFTHSM_MODULE])).code).toBe(0);
    const modules = JSON.parse((await cli(['modules', 'list', '--json', '--no-known-modules'])).stdout) as Array<{ path: string; origin: string }>;
    expect(modules).toEqual([expect.objectContaining({ path: SOFTHSM_MODULE_FILE, origin: 'user' })]);
    const listing = JSON.parse((await cli(['list', '--json', '--no-known-modules'])).stdout) as { tokens: Array<{ label: string }> };
    expect(listing.tokens.map((t) => t.label)).toContain('CLI Token');
    expect((await cli(['modules', 'remove', SOFTHSM_MODULE])).code).toBe(0);
    const after = JSON.parse((await cli(['list', '--json', '--no-known-modules'])).stdout) as { tokens: Array<{ label: string }> };
    expect(after.tokens.map((t) => t.label)).not.toContain('CLI Token');
  });

  it('store import takes a PKCS#12 file with its password on stdin; the key then signs through sign-digest', async () => {
    const signer = await createTestSigner(softhsm.ca, 'CN=CLI Store Signer,O=Signing Station Tests,C=EE', 'P-256', 'signing');
    const p12 = await writePkcs12(dataDir, 'cli', signer, softhsm.ca, 'p12-password');
    expect((await cli(['store', 'import', p12], 'wrong\n')).stderr).toMatch(/password is wrong/);
    const imported = await cli(['store', 'import', p12, '--label', 'My key'], 'p12-password\n');
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toMatch(/^imported [0-9a-f]{64} My key\n$/);
    const id = imported.stdout.split(' ')[1]!;
    const message = Buffer.from('store signature');
    const signed = await cli(['sign-digest', '--token', 'station-store', '--cert', id, '--hash', createHash('sha256').update(message).digest('hex'), '--no-known-modules']);
    expect(signed.stderr).toBe('');
    expect(verifyWithCertificate(signer.der, 'ECDSA', 'SHA-256', message, Buffer.from(signed.stdout.trim(), 'base64'))).toBe(true);
  });
});
