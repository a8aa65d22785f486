import { createHash, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../../src/station/store/database.js';
import { SecretVault, secretVaultMigrations } from '../../../../src/station/keychain/secret-vault.js';
import { OsKeyStore } from '../../../../src/station/keychain/os-key-store.js';
import { SoftTokenStore, softTokenMigrations } from '../../../../src/station/tokens/soft/soft-token-store.js';
import { SoftToken } from '../../../../src/station/tokens/soft/soft-token.js';
import { systemClock } from '../../../../src/station/ports/clock.js';
import { createSoftTokenSource } from '../../../../src/station/tokens/soft/create-soft-token-source.js';
import type { SignatureScheme, Token } from '../../../../src/station/tokens/token.js';
import { InvalidInputError } from '../../../../src/core/errors/invalid-input-error.js';
import { createTestCa, createTestSigner, type TestCa } from '../../../support/pki/test-pki.js';
import { pem, writePkcs12 } from '../../../support/pkcs11/pkcs11-nss-database.js';
import { scriptedPins } from '../../../support/pkcs11/pkcs11-pin-source.js';
import { verifyWithCertificate } from '../../../support/pkcs11/pkcs11-verify.js';

const run = promisify(execFile);
const keyStore = new OsKeyStore();
const account = `master-key:soft-token-test-${randomUUID()}`;
const encode = (text: string) => new TextEncoder().encode(text);

let dir: string;
let database: Database;
let store: SoftTokenStore;
let token: Token;
let ca: TestCa;
let rsa: Awaited<ReturnType<typeof createTestSigner>>;
let ec: Awaited<ReturnType<typeof createTestSigner>>;
let source: ReturnType<typeof createSoftTokenSource>;
let ec384: Awaited<ReturnType<typeof createTestSigner>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'soft-token-'));
  database = await Database.open(join(dir, 'station.sqlite'), [...secretVaultMigrations, ...softTokenMigrations]);
  store = new SoftTokenStore(database, await SecretVault.open(database, keyStore, account));
  source = createSoftTokenSource(store);
  await source.start();
  expect(source.tokens()).toEqual([]);
  token = new SoftToken(store, systemClock);
  ca = await createTestCa();
  [rsa, ec, ec384] = await Promise.all([
    createTestSigner(ca, 'CN=P12 RSA,O=Signing Station Tests,C=EE', 'RSA-2048', 'signing'),
    createTestSigner(ca, 'CN=P12 EC,O=Signing Station Tests,C=EE', 'P-256', 'authentication'),
    createTestSigner(ca, 'CN=P12 EC384,O=Signing Station Tests,C=EE', 'P-384', 'signing'),
  ]);
});

afterAll(async () => {
  await database?.close();
  await keyStore.delete(account);
  await rm(dir, { recursive: true, force: true });
});

describe('the station certificate store (PKCS#12 imports)', () => {
  it('imports a PKCS#12 file made by openssl; the CA in it is kept as the chain, not as a signing certificate', async () => {
    const changed = new Promise<void>((resolve) => store.onChange(resolve));
    const file = await readFile(await writePkcs12(dir, 'rsa', rsa, ca, 'pässwörd'));
    const password = encode('pässwörd');
    const listed = new Promise<void>((resolve) => source.onChange(resolve));
    const [stored] = await store.importPkcs12(file, password);
    await listed;
    expect(source.tokens().map((t) => t.label)).toEqual([token.label]);
    await changed;
    expect(password.every((byte) => byte === 0)).toBe(true);
    expect(stored!.chain.map((der) => Buffer.from(der))).toEqual([Buffer.from(ca.der)]);
    expect(stored!.label).toBe('rsa');
    const certificates = await token.listCertificates();
    expect(certificates).toHaveLength(1);
    expect(certificates[0]).toMatchObject({ subject: rsa.certificate.subject, usage: 'signing', keyAlgorithm: 'RSA', keyParameters: '2048', valid: true });
  });

  it('keeps the private key only encrypted: no PKCS#8 bytes anywhere in the data directory', async () => {
    const needle = Buffer.from(rsa.pkcs8).subarray(-64);
    for (const name of await readdir(dir)) {
      if (!name.startsWith('station.sqlite')) continue;
      expect((await readFile(join(dir, name))).includes(needle)).toBe(false);
    }
  });

  it.each([
    ['RSASSA-PKCS1-v1_5', 'SHA-256'],
    ['RSASSA-PKCS1-v1_5', 'SHA-512'],
    ['RSA-PSS', 'SHA-256'],
    ['RSA-PSS', 'SHA-384'],
  ] as const)('signs with the imported RSA key, %s over %s, verified by node:crypto', async (scheme, hashAlgorithm) => {
    const [certificate] = await token.listCertificates();
    const message = encode(`store ${scheme} ${hashAlgorithm}`);
    const hash = createHash(hashAlgorithm.replace('-', '').toLowerCase()).update(message).digest();
    const signature = await token.sign({ certificateId: certificate!.id, hash, hashAlgorithm, scheme, pin: scriptedPins().source, purpose: 'sign' });
    expect(verifyWithCertificate(rsa.der, scheme, hashAlgorithm, message, signature)).toBe(true);
    expect(verifyWithCertificate(rsa.der, scheme, hashAlgorithm, encode('another message'), signature)).toBe(false);
  });

  it.each([
    ['P-256', 64],
    ['P-384', 96],
  ] as const)('imports and signs with an EC %s key as r||s', async (curve, length) => {
    const signer = curve === 'P-256' ? ec : ec384;
    await store.importPkcs12(await readFile(await writePkcs12(dir, curve, signer, ca, 'pw')), encode('pw'));
    const certificate = (await token.listCertificates()).find((c) => c.subject === signer.certificate.subject)!;
    expect(certificate).toMatchObject({ keyAlgorithm: 'EC', keyParameters: curve });
    const message = encode('ec store');
    const signature = await token.sign({
      certificateId: certificate.id,
      hash: createHash('sha256').update(message).digest(),
      hashAlgorithm: 'SHA-256',
      scheme: 'ECDSA',
      pin: scriptedPins().source,
      purpose: 'authenticate',
    });
    expect(signature).toHaveLength(length);
    expect(verifyWithCertificate(signer.der, 'ECDSA', 'SHA-256', message, signature)).toBe(true);
  });

  it('refuses a wrong password, a legacy-encrypted file and a file without a key, with messages that say so', async () => {
    const file = await readFile(join(dir, 'rsa.p12'));
    await expect(store.importPkcs12(file, encode('wrong'))).rejects.toThrow(/password is wrong/);
    const keyFile = join(dir, 'legacy.key.pem');
    await writeFile(keyFile, pem('PRIVATE KEY', rsa.pkcs8), { mode: 0o600 });
    await run('openssl', ['pkcs12', '-export', '-legacy', '-inkey', keyFile, '-in', join(dir, 'rsa.cert.pem'), '-passout', 'pass:pw', '-out', join(dir, 'legacy.p12')]);
    await expect(store.importPkcs12(await readFile(join(dir, 'legacy.p12')), encode('pw'))).rejects.toThrow(/legacy encryption/);
    await run('openssl', ['pkcs12', '-export', '-nokeys', '-in', join(dir, 'rsa.cert.pem'), '-passout', 'pass:pw', '-out', join(dir, 'nokey.p12')]);
    const error = await store.importPkcs12(await readFile(join(dir, 'nokey.p12')), encode('pw')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as Error).message).toMatch(/no private key/);
  });

  it('refuses a scheme that does not fit the key', async () => {
    const certificate = (await token.listCertificates()).find((c) => c.keyAlgorithm === 'RSA')!;
    const scheme: SignatureScheme = 'ECDSA';
    await expect(
      token.sign({ certificateId: certificate.id, hash: new Uint8Array(32), hashAlgorithm: 'SHA-256', scheme, pin: scriptedPins().source, purpose: 'sign' }),
    ).rejects.toMatchObject({ code: 'ERR_TOKEN_SCHEME_MISMATCH' });
  });

  it('removes a key and its encrypted secret', async () => {
    const certificate = (await token.listCertificates()).find((c) => c.subject === ec.certificate.subject)!;
    expect(await store.remove(certificate.id)).toBe(true);
    expect((await token.listCertificates()).map((c) => c.id)).not.toContain(certificate.id);
    await expect(store.privateKey(certificate.id)).rejects.toMatchObject({ code: 'ERR_TOKEN_KEY_NOT_FOUND' });
  });
});
