import { createHash, verify, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPivCard, type PivTestCard } from './piv-card.js';
import { createTestCa, type TestCa } from '../support/pki/test-pki.js';
import { startPcscd, waitUntilNoCard } from '../support/pcsc/pcsc-test-env.js';
import { pkcs11Tool } from '../support/pcsc/pcsc-pkcs11-tool.js';
import type { PcscDaemon } from '../support/pcsc/pcsc-daemon.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** The emulated PIV card, driven by OpenSC's own PKCS#11 module through the real pcscd. */
describe('emulated PIV card under opensc-pkcs11', () => {
  let daemon: PcscDaemon;
  let ca: TestCa;
  let card: PivTestCard;
  let dir: string;

  beforeAll(async () => {
    daemon = await startPcscd();
    ca = await createTestCa();
    dir = await mkdtemp(join(tmpdir(), 'piv-'));
  });
  afterEach(async () => {
    await card?.vpcd.remove();
    await waitUntilNoCard();
  });
  afterAll(async () => {
    await daemon?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  async function insert(options: Parameters<typeof createPivCard>[0] = {}): Promise<void> {
    card = await createPivCard({ ca, ...options });
    await card.vpcd.insert();
    // pcscd polls vpcd every 400 ms; OpenSC sees only cards pcscd has seen.
    for (let i = 0; i < 100 && !(await pkcs11Tool('-L')).output.includes('token label'); i++) await sleep(50);
  }

  it('lists the certificates and keys (RSA 9A, EC 9C)', async () => {
    await insert();
    const { code, output } = await pkcs11Tool('-O');
    expect(code).toBe(0);
    expect(output).toContain('Certificate for PIV Authentication');
    expect(output).toContain('Certificate for Digital Signature');
    expect(output).toMatch(/Public Key Object; RSA 2048 bits/);
    expect(output).toMatch(/Public Key Object; EC\s+EC_POINT 256 bits/);
    expect(card.vpcd.errors).toEqual([]);
  });

  it('signs with RSA (9A) and ECDSA (9C, PIN before each use) and both verify', async () => {
    await insert();
    const content = Buffer.from('a document for the PIV card');
    const data = join(dir, 'data.bin');
    const hash = join(dir, 'data.sha256');
    await writeFile(data, content);
    await writeFile(hash, createHash('sha256').update(content).digest());
    const rsaSig = join(dir, 'rsa.sig');
    const ecSig = join(dir, 'ec.sig');
    const rsa = await pkcs11Tool('--login', '--pin', '123456', '--sign', '--id', '01', '--mechanism', 'SHA256-RSA-PKCS', '--input-file', data, '--output-file', rsaSig);
    expect(rsa.code, rsa.output).toBe(0);
    // CKM_ECDSA signs a hash the caller made; --signature-format openssl gives DER.
    const ec = await pkcs11Tool('--login', '--pin', '123456', '--sign', '--id', '02', '--mechanism', 'ECDSA', '--signature-format', 'openssl', '--input-file', hash, '--output-file', ecSig);
    expect(ec.code, ec.output).toBe(0);
    expect(verify('sha256', content, new X509Certificate(card.certificates.authentication!).publicKey, await readFile(rsaSig))).toBe(true);
    expect(verify('sha256', content, new X509Certificate(card.certificates.signature!).publicKey, await readFile(ecSig))).toBe(true);
    expect(verify('sha256', Buffer.from('another document'), new X509Certificate(card.certificates.signature!).publicKey, await readFile(ecSig))).toBe(false);
    expect(card.applet.signatureCount.get(0x9a)).toBe(1);
    expect(card.applet.signatureCount.get(0x9c)).toBe(1);
    expect(card.vpcd.errors).toEqual([]);
  });

  it('locks the PIN for real: CKR_PIN_INCORRECT, final try flag, then CKR_PIN_LOCKED', async () => {
    await insert();
    const first = await pkcs11Tool('--login', '--pin', '000000', '-O');
    expect(first.output).toContain('CKR_PIN_INCORRECT');
    const second = await pkcs11Tool('--login', '--pin', '000000', '-O');
    expect(second.output).toContain('CKR_PIN_INCORRECT');
    expect((await pkcs11Tool('-L')).output).toContain('final user PIN try');
    const third = await pkcs11Tool('--login', '--pin', '000000', '-O');
    expect(third.output).toMatch(/CKR_PIN_INCORRECT|CKR_PIN_LOCKED/);
    const fourth = await pkcs11Tool('--login', '--pin', '123456', '-O');
    expect(fourth.output).toContain('CKR_PIN_LOCKED');
    expect(card.applet.pinTries).toBe(0);
  });
});
