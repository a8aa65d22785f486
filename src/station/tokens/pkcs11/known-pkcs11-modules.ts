import { readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Pkcs11ModuleSpec } from './pkcs11-module-spec.js';

type Candidate = Omit<Pkcs11ModuleSpec, 'origin' | 'path'> & { paths: readonly string[] };

const LINUX_LIB_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib', '/usr/local/lib'];

function inLibDirs(...names: string[]): string[] {
  return LINUX_LIB_DIRS.flatMap((dir) => names.map((name) => join(dir, name)));
}

/**
 * Where the usual middleware installs itself, per OS. Only files that exist are tried, and each is loaded only
 * when the token source starts, so a broken vendor library never stops the station from starting.
 */
const CANDIDATES: Partial<Record<NodeJS.Platform, readonly Candidate[]>> = {
  linux: [
    { name: 'OpenSC', kind: 'pkcs11', paths: inLibDirs('opensc-pkcs11.so', 'pkcs11/opensc-pkcs11.so') },
    { name: 'SoftHSM 2', kind: 'pkcs11', rescanByReinitialize: true, paths: inLibDirs('softhsm/libsofthsm2.so', 'pkcs11/libsofthsm2.so') },
    { name: 'YubiKey (ykcs11)', kind: 'pkcs11', paths: inLibDirs('libykcs11.so', 'libykcs11.so.2') },
    { name: 'SafeNet eToken / Thales', kind: 'pkcs11', paths: inLibDirs('libeTPkcs11.so', 'libeToken.so', 'libIDPrimePKCS11.so') },
    { name: 'Atos CardOS', kind: 'pkcs11', paths: inLibDirs('libcardos11.so') },
    { name: 'Bit4id', kind: 'pkcs11', paths: inLibDirs('bit4id/libbit4ipki.so', 'libbit4ipki.so') },
    { name: 'Belgian eID', kind: 'pkcs11', paths: inLibDirs('libbeidpkcs11.so.0') },
  ],
  darwin: [
    { name: 'OpenSC', kind: 'pkcs11', paths: ['/Library/OpenSC/lib/opensc-pkcs11.so', '/opt/homebrew/lib/opensc-pkcs11.so', '/usr/local/lib/opensc-pkcs11.so'] },
    { name: 'SoftHSM 2', kind: 'pkcs11', rescanByReinitialize: true, paths: ['/opt/homebrew/lib/softhsm/libsofthsm2.so', '/usr/local/lib/softhsm/libsofthsm2.so'] },
    { name: 'YubiKey (ykcs11)', kind: 'pkcs11', paths: ['/usr/local/lib/libykcs11.dylib', '/opt/homebrew/lib/libykcs11.dylib'] },
    { name: 'SafeNet eToken / Thales', kind: 'pkcs11', paths: ['/usr/local/lib/libeTPkcs11.dylib', '/Library/Frameworks/eToken.framework/Versions/Current/libeToken.dylib'] },
  ],
  win32: [
    { name: 'OpenSC', kind: 'pkcs11', paths: ['C:\\Windows\\System32\\opensc-pkcs11.dll', 'C:\\Program Files\\OpenSC Project\\OpenSC\\pkcs11\\opensc-pkcs11.dll'] },
    { name: 'SoftHSM 2', kind: 'pkcs11', rescanByReinitialize: true, paths: ['C:\\SoftHSM2\\lib\\softhsm2-x64.dll'] },
    { name: 'YubiKey (ykcs11)', kind: 'pkcs11', paths: ['C:\\Program Files\\Yubico\\Yubico PIV Tool\\bin\\libykcs11.dll'] },
    { name: 'SafeNet eToken / Thales', kind: 'pkcs11', paths: ['C:\\Windows\\System32\\eTPKCS11.dll', 'C:\\Windows\\System32\\IDPrimePKCS1164.dll'] },
  ],
};

const NSS_SOFTOKEN: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: inLibDirs('libsoftokn3.so', 'nss/libsoftokn3.so'),
  darwin: ['/opt/homebrew/lib/libsoftokn3.dylib', '/usr/local/lib/libsoftokn3.dylib'],
};

/**
 * Directories whose libraries the station loads without asking: the OS's standard library and PKCS#11 module
 * directories, writable only by an administrator. Anything else needs the user's confirmation of the exact file.
 */
const STANDARD_MODULE_DIRS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: [...LINUX_LIB_DIRS.flatMap((dir) => [dir, join(dir, 'pkcs11')])],
  darwin: ['/usr/local/lib', '/opt/homebrew/lib', '/Library/OpenSC/lib', '/usr/lib'],
  win32: ['C:\\Windows\\System32', 'C:\\Program Files', 'C:\\Program Files (x86)'],
};

export function standardModuleDirs(platform: NodeJS.Platform = process.platform): readonly string[] {
  return STANDARD_MODULE_DIRS[platform] ?? [];
}

/** Every path this OS's known middleware may live at, in preference order (first existing one per name wins). */
export function knownPkcs11Modules(platform: NodeJS.Platform = process.platform): Array<Omit<Pkcs11ModuleSpec, 'path'> & { paths: readonly string[] }> {
  return (CANDIDATES[platform] ?? []).map((candidate) => ({ ...candidate, origin: 'known' as const }));
}

/** Paths of NSS's softoken for this OS. */
export function nssSoftokenPaths(platform: NodeJS.Platform = process.platform): readonly string[] {
  return NSS_SOFTOKEN[platform] ?? [];
}

/**
 * Where this user's browsers keep their NSS databases on Linux, most shared first: Chromium's ~/.pki/nssdb, then
 * Firefox profiles. The caller opens the first that exists (one softoken opens one database per process).
 */
export async function defaultNssDatabaseDirs(home: string = homedir()): Promise<string[]> {
  const firefox = join(home, '.mozilla', 'firefox');
  const profiles = await readdir(firefox, { withFileTypes: true }).catch(() => []);
  const byPreference = profiles
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => Number(b.includes('default')) - Number(a.includes('default')) || a.localeCompare(b));
  return [join(home, '.pki', 'nssdb'), ...byPreference.map((name) => join(firefox, name))];
}
