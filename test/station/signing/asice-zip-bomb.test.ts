import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AsiceEngine } from '../../../src/station/signing/asice-engine.js';
import { softKeySigner } from '../../../src/station/signing/soft-key-signer.js';
import { verifyDocument } from '../../../src/station/verification/verify-document.js';
import { extractZip } from '../../support/signing/signing-zip-extract.js';
import { containerOf, type ContainerEntry } from '../../support/signing/zip-bomb.js';
import { createTestCa, createTestSigner } from '../../support/pki/test-pki.js';
import { trustOf } from '../../support/verification/trust-of.js';
import { readFile } from 'node:fs/promises';

let dir: string;
let signer: Awaited<ReturnType<typeof createTestSigner>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'zip-bomb-'));
  signer = await createTestSigner(await createTestCa(), 'CN=Mari Mägi,C=EE', 'P-256');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const manifest = (names: string[]): ContainerEntry => ({
  name: 'META-INF/manifest.xml',
  data: Buffer.from(
    `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">${names.map((n) => `<manifest:file-entry manifest:full-path="${n}" manifest:media-type="application/octet-stream"/>`).join('')}</manifest:manifest>`,
  ),
});

async function written(name: string, bytes: Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

/** Adding a signature, counting the bytes it hashes. */
async function addSignature(path: string): Promise<{ hashed: number; error: unknown }> {
  let hashed = 0;
  const error = await AsiceEngine.prepare(path, { certificate: signer.der, onProgress: (done) => (hashed = done) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { hashed, error };
}

describe('zip bombs in an ASiC-E container', () => {
  it('refuses an entry that inflates more than 100 times before hashing a byte, and verify says it is too large', async () => {
    const bomb = await written('ratio.asice', await containerOf([{ name: 'zeros.bin', data: Buffer.alloc(64 * MiB) }, manifest(['zeros.bin'])]));
    const { hashed, error } = await addSignature(bomb);
    expect(error).toMatchObject({ code: 'ERR_CONTAINER_ENTRY_TOO_LARGE', status: 422, message: expect.stringMatching(/zeros\.bin is too large: it inflates more than 100 times/) });
    expect(hashed).toBe(0);
    await expect(verifyDocument(bomb, { trust: trustOf() })).rejects.toMatchObject({ code: 'ERR_CONTAINER_ENTRY_TOO_LARGE', message: expect.stringMatching(/too large/) });
  });

  it('refuses entries declaring more than 2 GiB in all before hashing a byte', async () => {
    // Each entry under the ratio limit (random bytes, declared 90 times their size): only the total gives it away.
    const names = Array.from({ length: 25 }, (_, i) => `part-${i}.bin`);
    const entries = names.map((name) => ({ name, data: randomBytes(MiB), declaredSize: 90 * MiB }));
    const container = await written('total.asice', await containerOf([...entries, manifest(names)]));
    const { hashed, error } = await addSignature(container);
    expect(error).toMatchObject({ code: 'ERR_CONTAINER_ENTRY_TOO_LARGE', message: expect.stringMatching(/more than 2147483648 bytes/) });
    expect(hashed).toBe(0);
  });

  it('stops an entry that inflates past its declared size at that size, when signing and when verifying', async () => {
    const lying = await written('lying.asice', await containerOf([{ name: 'doc.txt', data: Buffer.alloc(32 * MiB), declaredSize: 1000 }, manifest(['doc.txt'])]));
    const { hashed, error } = await addSignature(lying);
    expect(error).toMatchObject({ code: 'ERR_CONTAINER_ENTRY_TOO_LARGE', message: expect.stringMatching(/doc\.txt is too large: it inflates past the 1000 bytes it declares/) });
    expect(hashed).toBeLessThan(MiB);

    // A container signed over a small doc.txt, whose doc.txt is then swapped for a lying bomb.
    const original = await written('doc.txt', Buffer.from('The parties agree.\n'));
    const prepared = await AsiceEngine.prepare(original, { certificate: signer.der });
    const signature = await softKeySigner(signer.pkcs8)(Buffer.from(prepared.dataToSignDigest, 'hex'), prepared.digestAlgorithm);
    const signed = join(dir, 'signed.asice');
    await AsiceEngine.finish(prepared.state, signature, { outputPath: signed });
    const unpacked = await mkdtemp(join(dir, 'unpacked-'));
    await extractZip(signed, unpacked);
    const swapped = await written(
      'swapped.asice',
      await containerOf([
        { name: 'doc.txt', data: Buffer.alloc(32 * MiB), declaredSize: 19 },
        { name: 'META-INF/manifest.xml', data: await readFile(join(unpacked, 'META-INF/manifest.xml')) },
        { name: 'META-INF/signatures0.xml', data: await readFile(join(unpacked, 'META-INF/signatures0.xml')) },
      ]),
    );
    await expect(verifyDocument(swapped, { trust: trustOf() })).rejects.toMatchObject({ code: 'ERR_CONTAINER_ENTRY_TOO_LARGE', message: expect.stringMatching(/doc\.txt is too large/) });
  });
});
