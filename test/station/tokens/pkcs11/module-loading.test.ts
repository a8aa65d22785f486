// A planted file against the modules the station loads: a retargeted symlink, a file swapped between the hash
// check and dlopen, a directory someone else may write. Each attack uses a real foreign library whose
// constructor leaves a mark, so "not loaded" is checked on what ran, not on what the station says.
import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rename, symlink, unlink } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../../src/station/store/database.js';
import { Pkcs11ModuleRegistry, pkcs11Migrations } from '../../../../src/station/tokens/pkcs11/pkcs11-module-registry.js';
import { Pkcs11ModuleAllowlist } from '../../../../src/station/tokens/pkcs11/pkcs11-module-allowlist.js';
import { Pkcs11Module } from '../../../../src/station/tokens/pkcs11/pkcs11-module.js';
import { createPkcs11TokenSource } from '../../../../src/station/tokens/pkcs11/create-pkcs11-token-source.js';
import { createSoftHsm, SOFTHSM_MODULE, SOFTHSM_MODULE_FILE, type SoftHsm } from '../../../support/pkcs11/pkcs11-softhsm.js';
import { buildForeignLibrary, buildPathSwapper } from '../../../support/pkcs11/foreign-library.js';
import { tempDirsRemovedAfterEach } from '../../../support/temp-dirs.js';
import { scriptedPins } from '../../../support/pkcs11/pkcs11-pin-source.js';

let softhsm: SoftHsm;
const realSoftHsm = SOFTHSM_MODULE_FILE;

beforeAll(async () => {
  softhsm = await createSoftHsm();
  await softhsm.createToken('Loading', '1234', [{ id: '01', algorithm: 'P-256', usage: 'signing' }]);
});

afterAll(async () => {
  await softhsm?.dispose();
});

const tempDir = tempDirsRemovedAfterEach('module-loading-');

async function openRegistry(dir: string, allowlist?: Pkcs11ModuleAllowlist): Promise<{ registry: Pkcs11ModuleRegistry; close: () => Promise<void> }> {
  const database = await Database.open(join(dir, 'station.sqlite'), pkcs11Migrations);
  return { registry: new Pkcs11ModuleRegistry(database, allowlist), close: () => database.close() };
}

const sha256Of = async (path: string): Promise<string> => createHash('sha256').update(await readFile(path)).digest('hex');

describe('modules the user added are loaded as the file they named, never another', () => {
  it('stores the real path of a module added through a symlink, so retargeting the link loads nothing new', async () => {
    const dir = await tempDir();
    const foreign = await buildForeignLibrary(dir);
    const links = join(dir, 'links');
    await mkdir(links, { mode: 0o700 });
    const link = join(links, 'libvendor.so');
    await symlink(SOFTHSM_MODULE, link);
    const { registry, close } = await openRegistry(dir);
    try {
      await registry.add(link);
      // Added a second time under its real name, it is still one module.
      await registry.add(realSoftHsm);
      expect(await registry.list()).toEqual([expect.objectContaining({ path: realSoftHsm, kind: 'module' })]);

      await unlink(link);
      await symlink(foreign.path, link);
      const source = createPkcs11TokenSource({ includeKnown: false, registry });
      await source.start();
      try {
        expect(source.modules().map((module) => module.path)).toEqual([realSoftHsm]);
      } finally {
        await source.stop();
      }
      expect(await foreign.loads()).toBe(0);
    } finally {
      await close();
    }
  });

  it('refuses, at add and at every later load, a module behind a symlink or in a directory others may write', async () => {
    const dir = await tempDir();
    const shared = join(dir, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o775);
    const copy = join(shared, 'libvendor.so');
    await copyFile(realSoftHsm, copy);
    const { registry, close } = await openRegistry(dir);
    try {
      await expect(registry.add(copy, 'module', async () => true)).rejects.toMatchObject({ code: 'ERR_TOKEN_MODULE_UNSAFE_PATH', message: expect.stringMatching(/writable by its group/) });
      expect(await registry.list()).toEqual([]);

      // Trusted while its directory was private; the directory opened up since: the next load refuses it.
      await chmod(shared, 0o700);
      await registry.add(copy, 'module', async () => true);
      await chmod(shared, 0o770);
      const source = createPkcs11TokenSource({ includeKnown: false, registry });
      await source.start();
      try {
        expect(source.modules()).toEqual([]);
        expect(source.problems()).toEqual([expect.objectContaining({ code: 'ERR_TOKEN_MODULE_UNSAFE_PATH' })]);
      } finally {
        await source.stop();
      }
    } finally {
      await close();
    }
  });

  it('asks the allowlist again at every load: a library added from a directory the config no longer allows is not loaded', async () => {
    const dir = await tempDir();
    const vendor = join(dir, 'vendor');
    await mkdir(vendor, { mode: 0o700 });
    const copy = join(vendor, 'libvendor.so');
    await copyFile(realSoftHsm, copy);
    const before = await openRegistry(dir, new Pkcs11ModuleAllowlist({ extraDirs: [vendor] }));
    await before.registry.add(copy);
    await before.close();

    const { registry, close } = await openRegistry(dir);
    const source = createPkcs11TokenSource({ includeKnown: false, registry });
    try {
      await source.start();
      expect(source.modules()).toEqual([]);
      expect(source.problems().map((problem) => problem.message).join('\n')).toMatch(/no longer in the directories/);
    } finally {
      await source.stop();
      await close();
    }
  });

  it('logs in through the file it loaded: a library put under the trusted name since never runs', async () => {
    const dir = await tempDir();
    const foreign = await buildForeignLibrary(dir);
    const vendor = join(dir, 'vendor');
    await mkdir(vendor, { mode: 0o700 });
    const copy = join(vendor, 'libvendor.so');
    await copyFile(realSoftHsm, copy);
    const { registry, close } = await openRegistry(dir);
    await registry.add(copy, 'module', async () => true);
    const source = createPkcs11TokenSource({ includeKnown: false, registry });
    try {
      await source.start();
      await rename(foreign.path, copy);
      const token = source.tokens().find((candidate) => candidate.label === 'Loading');
      if (!token) throw new Error('the trusted module’s token is missing');
      // The PIN is checked on a login thread, which opens the library again.
      const signature = await token.sign({ certificateId: '01', hash: new Uint8Array(32), hashAlgorithm: 'SHA-256', scheme: 'ECDSA', pin: scriptedPins('1234').source, purpose: 'sign' });
      expect(signature.length).toBeGreaterThan(0);
      expect(await foreign.loads()).toBe(0);
    } finally {
      await source.stop();
      await close();
    }
  });

  it('loads the bytes it hashed: swapping the trusted file for another while it loads never runs the other', async () => {
    const dir = await tempDir();
    const foreign = await buildForeignLibrary(dir);
    const swapper = await buildPathSwapper(dir);
    const trustedSha256 = await sha256Of(realSoftHsm);
    const outcomes = { loaded: 0, refused: 0 };
    // A fresh pair of files each time, as at a station's start: the first load of a name is the one that counts. At
    // least 40 loads, and on until the swapper has met some of them (a busy machine may start it late), at most 400.
    for (let run = 0; run < 400 && (run < 40 || outcomes.refused < 3); run++) {
      const trusted = join(dir, `libtrusted-${run}.so`);
      const planted = join(dir, `libplanted-${run}.so`);
      await copyFile(realSoftHsm, trusted);
      await copyFile(foreign.path, planted);
      const swapping = spawn(swapper, [trusted, planted], { stdio: 'ignore' });
      await new Promise<void>((resolve, reject) => swapping.once('spawn', resolve).once('error', reject));
      const module = new Pkcs11Module({ path: trusted, name: 'trusted', kind: 'pkcs11', origin: 'user', trustedSha256, fileCheck: 'exact' });
      try {
        module.open();
        outcomes.loaded++;
        module.close();
      } catch {
        outcomes.refused++;
      } finally {
        swapping.kill();
        await new Promise((resolve) => swapping.once('exit', resolve));
      }
    }
    expect(await foreign.loads()).toBe(0);
    // The swap really ran while the station loaded: some attempts met the planted file and were refused.
    expect(outcomes.refused).toBeGreaterThan(0);
  });
});
