import { access, constants, realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { defaultNssDatabaseDirs, knownPkcs11Modules, nssSoftokenPaths } from './known-pkcs11-modules.js';
import { nssDatabaseModule } from './nss-database-module.js';
import type { Pkcs11ModuleSpec } from './pkcs11-module-spec.js';
import type { Pkcs11ModuleRegistry, UserModuleEntry } from './pkcs11-module-registry.js';

export interface ModuleSelection {
  /** Look for the per-OS known middleware and the user's browser NSS database (default true). */
  includeKnown?: boolean;
  /** User-added modules and NSS databases, read at each start. */
  registry?: Pkcs11ModuleRegistry;
  /** Module paths from the station config or the command line (`--module`). */
  modulePaths?: readonly string[];
  /** NSS database directories to open through the softoken. */
  nssDatabases?: readonly string[];
  /** Modules given in full (tests, embedders): used as they are. */
  modules?: readonly Pkcs11ModuleSpec[];
}

/** Every module to load, in order: explicit specs, configured paths, user-added, then the known ones for this OS. */
export async function resolvePkcs11Modules(options: ModuleSelection): Promise<Pkcs11ModuleSpec[]> {
  const specs: Pkcs11ModuleSpec[] = [...(options.modules ?? [])];
  const registry = options.registry;
  const user = (await registry?.list()) ?? [];
  for (const path of options.modulePaths ?? []) specs.push({ ...pathModule(path, 'config'), fileCheck: 'resolved' });
  if (registry) for (const entry of user.filter((e) => e.kind === 'module')) specs.push(await userModule(entry, registry));

  const softoken = await firstExisting(nssSoftokenPaths());
  const nssDirs: Array<{ dir: string; origin: Pkcs11ModuleSpec['origin'] }> = [
    ...(options.nssDatabases ?? []).map((dir) => ({ dir, origin: 'config' as const })),
    ...user.filter((e) => e.kind === 'nss-database').map((e) => ({ dir: e.path, origin: 'user' as const })),
  ];
  if (options.includeKnown !== false) {
    for (const candidate of knownPkcs11Modules()) {
      const path = await firstExisting(candidate.paths);
      if (path) specs.push({ ...candidate, path });
    }
    for (const dir of await defaultNssDatabaseDirs()) {
      if (await firstExisting([join(dir, 'cert9.db')])) {
        nssDirs.push({ dir, origin: 'known' });
        break;
      }
    }
  }
  if (softoken) for (const { dir, origin } of nssDirs) specs.push(nssDatabaseModule(softoken, dir, origin));

  // The same library under two names (a symlink in pkcs11/, a known path also added by the user) loads once, as
  // the first one found, and keeps the known middleware's name rather than the file name it was added under.
  const seen = new Map<string, number>();
  const unique: Pkcs11ModuleSpec[] = [];
  for (const spec of specs) {
    const key = `${await realpath(spec.path).catch(() => spec.path)}\0${spec.initialize?.libraryParameters ?? ''}`;
    const earlier = seen.get(key);
    if (earlier === undefined) {
      seen.set(key, unique.length);
      unique.push(spec);
    } else if (spec.origin === 'known') {
      unique[earlier] = { ...unique[earlier]!, name: spec.name };
    }
  }
  return unique;
}

/** A user-added library: its allowlist verdict asked again now, so a library that left the allowlist is not loaded. */
async function userModule(entry: UserModuleEntry, registry: Pkcs11ModuleRegistry): Promise<Pkcs11ModuleSpec> {
  const spec = { ...pathModule(entry.path, 'user'), fileCheck: 'exact' as const };
  if (entry.sha256) return { ...spec, trustedSha256: entry.sha256 };
  if (await registry.isAllowlisted(entry.path)) return spec;
  return {
    ...spec,
    refusal: `${entry.path} is no longer in the directories the station loads modules from and was never confirmed by its SHA-256; it was not loaded. Trust it on your own terminal: signing-station tokens modules add ${entry.path} --trust-sha256 <its SHA-256>`,
  };
}

function pathModule(path: string, origin: Pkcs11ModuleSpec['origin']): Pkcs11ModuleSpec {
  return { path, name: basename(path), kind: 'pkcs11', origin, rescanByReinitialize: /softhsm/i.test(basename(path)) };
}

/** The first of `paths` that exists and is readable. */
export async function firstExisting(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) {
    try {
      await access(path, constants.R_OK);
      return path;
    } catch {
      // try the next location
    }
  }
  return undefined;
}
