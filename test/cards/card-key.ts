import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, createPrivateKey, privateEncrypt, type KeyObject } from 'node:crypto';
let keyDir: string | undefined;

/**
 * A private key as a card holds it: it signs what the host sends (a DigestInfo, a padded block, a bare hash)
 * without hashing again. Node's crypto always hashes for ECDSA, so prehashed ECDSA goes through
 * `openssl pkeyutl`, which signs its input as the digest.
 */
export class CardKey {
  readonly key: KeyObject;
  readonly type: 'rsa' | 'ec';
  private pemFile: string | undefined;

  constructor(pkcs8: Uint8Array) {
    this.key = createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
    this.type = this.key.asymmetricKeyType === 'ec' ? 'ec' : 'rsa';
  }

  get sizeBytes(): number {
    const details = this.key.asymmetricKeyDetails;
    if (this.type === 'rsa') return (details?.modulusLength ?? 0) / 8;
    return details?.namedCurve === 'secp384r1' ? 48 : 32;
  }

  /** RSA PKCS#1 v1.5 signature of a DigestInfo the host built (block type 1 padding done here). */
  rsaPkcs1(digestInfo: Buffer): Buffer {
    return privateEncrypt({ key: this.key, padding: constants.RSA_PKCS1_PADDING }, digestInfo);
  }

  /** Raw RSA: the host already padded the block to the modulus size. */
  rsaRaw(block: Buffer): Buffer {
    return privateEncrypt({ key: this.key, padding: constants.RSA_NO_PADDING }, block);
  }

  /** ECDSA over `hash` as given; DER ECDSA-Sig-Value. */
  async ecdsaDer(hash: Buffer): Promise<Buffer> {
    const child = spawn('openssl', ['pkeyutl', '-sign', '-inkey', this.keyFile()], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.end(hash);
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    if (code !== 0) throw new Error(`openssl pkeyutl failed: ${Buffer.concat(err).toString()}`);
    return Buffer.concat(out);
  }

  private keyFile(): string {
    if (!keyDir) {
      const dir = mkdtempSync(join(tmpdir(), 'emulated-card-'));
      keyDir = dir;
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    }
    this.pemFile ??= join(keyDir, `${Math.random().toString(36).slice(2)}.pem`);
    if (!existsSync(this.pemFile)) writeFileSync(this.pemFile, this.key.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
    return this.pemFile;
  }
}
