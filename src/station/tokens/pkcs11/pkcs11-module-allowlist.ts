import { readdir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { standardModuleDirs } from './known-pkcs11-modules.js';

/** System-wide p11-kit registrations (pkcs11.conf(5)); the per-user directory is left out on purpose. */
const P11_KIT_MODULE_CONFIG_DIRS = ['/usr/share/p11-kit/modules', '/etc/pkcs11/modules'];

/**
 * Which PKCS#11 libraries the station may load without asking. Loading a library runs its code inside the
 * station, so a path is allowed only inside the OS's standard module directories, directories the station's
 * configuration adds, or as a library p11-kit has registered system-wide. Paths are compared after resolving
 * symlinks, so `/usr/lib/../../tmp/x.so` or a link into /usr/lib pointing elsewhere is judged by its real file.
 */
export class Pkcs11ModuleAllowlist {
  readonly #dirs: readonly string[];
  readonly #p11KitConfigDirs: readonly string[];

  constructor(options: { dirs?: readonly string[]; extraDirs?: readonly string[]; p11KitConfigDirs?: readonly string[] } = {}) {
    this.#dirs = [...(options.dirs ?? standardModuleDirs()), ...(options.extraDirs ?? [])];
    this.#p11KitConfigDirs = options.p11KitConfigDirs ?? P11_KIT_MODULE_CONFIG_DIRS;
  }

  /** The directories, as the refusal message and the docs name them. */
  directories(): readonly string[] {
    return this.#dirs;
  }

  async allows(path: string): Promise<boolean> {
    const real = await realpath(path).catch(() => undefined);
    if (!real) return false;
    for (const dir of this.#dirs) {
      const realDir = await realpath(dir).catch(() => undefined);
      if (realDir && isInside(real, realDir)) return true;
    }
    return (await this.#p11KitModules()).includes(real);
  }

  async #p11KitModules(): Promise<string[]> {
    const modules: string[] = [];
    for (const dir of this.#p11KitConfigDirs) {
      const files = await readdir(dir).catch(() => []);
      for (const file of files.filter((name) => name.endsWith('.module'))) {
        const text = await readFile(join(dir, file), 'utf8').catch(() => '');
        const module = /^\s*module:\s*(\S+)\s*$/m.exec(text)?.[1];
        // A bare name lives in p11-kit's module directory, already one of the standard directories.
        if (module && isAbsolute(module)) modules.push(await realpath(module).catch(() => module));
      }
    }
    return modules;
  }
}

function isInside(file: string, dir: string): boolean {
  const path = relative(dir, file);
  return path !== '' && !path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path);
}
