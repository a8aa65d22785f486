import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../../../src/station/store/database.js';
import { Pkcs11ModuleRegistry, pkcs11Migrations } from '../../../../src/station/tokens/pkcs11/pkcs11-module-registry.js';
import { resolvePkcs11Modules } from '../../../../src/station/tokens/pkcs11/resolve-pkcs11-modules.js';
import { defaultNssDatabaseDirs, knownPkcs11Modules } from '../../../../src/station/tokens/pkcs11/known-pkcs11-modules.js';
import { SOFTHSM_MODULE, SOFTHSM_MODULE_FILE } from '../../../support/pkcs11/pkcs11-softhsm.js';

let dir: string;
let database: Database;
let registry: Pkcs11ModuleRegistry;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pkcs11-registry-'));
  database = await Database.open(join(dir, 'station.sqlite'), pkcs11Migrations);
  registry = new Pkcs11ModuleRegistry(database);
});

afterAll(async () => {
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

describe('PKCS#11 module registry', () => {
  it('knows the usual middleware of each OS', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(knownPkcs11Modules(platform).map((m) => m.name)).toEqual(expect.arrayContaining(['OpenSC', 'SoftHSM 2', 'YubiKey (ykcs11)']));
    }
  });

  it('finds the middleware installed on this machine (OpenSC, SoftHSM) and loads each library once', async () => {
    const specs = await resolvePkcs11Modules({ modulePaths: [SOFTHSM_MODULE] });
    expect(specs.filter((s) => s.name === 'OpenSC').map((s) => s.origin)).toEqual(['known']);
    expect(specs.filter((s) => s.path === SOFTHSM_MODULE)).toEqual([expect.objectContaining({ origin: 'config', name: 'SoftHSM 2' })]);
    const alias = join(dir, 'libsofthsm2-alias.so');
    await symlink(SOFTHSM_MODULE, alias);
    expect((await resolvePkcs11Modules({ includeKnown: false, modulePaths: [SOFTHSM_MODULE, alias] })).map((s) => s.path)).toEqual([SOFTHSM_MODULE]);
  });

  it('adds a module only after loading it, and refuses what is not a PKCS#11 library', async () => {
    const notLibrary = join(dir, 'not-a-module.so');
    await writeFile(notLibrary, 'hello');
    await expect(registry.add(notLibrary)).rejects.toMatchObject({ code: 'ERR_TOKEN_MODULE_NOT_TRUSTED', message: expect.stringMatching(/outside the directories/) });
    await expect(registry.add(notLibrary, 'module', async () => true)).rejects.toMatchObject({ code: 'ERR_INPUT_INVALID', message: expect.stringMatching(/not a PKCS#11 library/) });
    await expect(registry.add('relative/module.so')).rejects.toMatchObject({ message: expect.stringMatching(/absolute/) });
    await expect(registry.add(join(dir, 'missing.so'))).rejects.toMatchObject({ message: expect.stringMatching(/No readable file/) });
    await expect(registry.add(dir, 'nss-database')).rejects.toMatchObject({ message: expect.stringMatching(/cert9\.db/) });
    await registry.add(SOFTHSM_MODULE);
    expect(await registry.list()).toEqual([expect.objectContaining({ path: SOFTHSM_MODULE_FILE, kind: 'module' })]);
    const specs = await resolvePkcs11Modules({ includeKnown: false, registry });
    expect(specs).toEqual([expect.objectContaining({ path: SOFTHSM_MODULE_FILE, origin: 'user', rescanByReinitialize: true })]);
    // Added through the symlink the known list also finds: loaded once, under the known middleware's name.
    const withKnown = (await resolvePkcs11Modules({ registry })).filter((spec) => spec.path === SOFTHSM_MODULE_FILE || spec.path === SOFTHSM_MODULE);
    expect(withKnown).toEqual([expect.objectContaining({ path: SOFTHSM_MODULE_FILE, origin: 'user', name: 'SoftHSM 2' })]);
    expect(await registry.remove(SOFTHSM_MODULE)).toBe(true);
    expect(await registry.remove(SOFTHSM_MODULE)).toBe(false);
    expect(await registry.list()).toEqual([]);
  });
});

describe('browser NSS databases', () => {
  it('prefers Chromium’s shared database, then Firefox default profiles', async () => {
    const home = await mkdtemp(join(tmpdir(), 'home-'));
    try {
      await mkdir(join(home, '.mozilla', 'firefox', 'abc.other'), { recursive: true });
      await mkdir(join(home, '.mozilla', 'firefox', 'xyz.default-release'), { recursive: true });
      expect(await defaultNssDatabaseDirs(home)).toEqual([
        join(home, '.pki', 'nssdb'),
        join(home, '.mozilla', 'firefox', 'xyz.default-release'),
        join(home, '.mozilla', 'firefox', 'abc.other'),
      ]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
