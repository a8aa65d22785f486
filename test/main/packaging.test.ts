import { describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { minimatch } from 'minimatch';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';

const config = JSON.parse(await readFile('electron-builder.json', 'utf8')) as {
  files: string[];
  asarUnpack: string[];
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
  protocols: Array<{ schemes: string[] }>;
};

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)])));
  return nested.flat();
}

/** electron-builder's `files` rule: included when some positive pattern matches and no `!` pattern does. */
const packed = (path: string): boolean =>
  config.files.some((pattern) => !pattern.startsWith('!') && minimatch(path, pattern, { dot: true })) &&
  !config.files.some((pattern) => pattern.startsWith('!') && minimatch(path, pattern.slice(1), { dot: true }));
const unpacked = (path: string): boolean => config.asarUnpack.some((pattern) => minimatch(path, pattern, { dot: true }));

describe('desktop packages (electron-builder.json)', () => {
  it('is a configuration electron-builder accepts, for deb, AppImage, dmg and nsis, with the deep-link scheme', async () => {
    // Electron's binary cannot be downloaded here, so the packages themselves are not built: the configuration
    // is checked by electron-builder's own validation, against its schema.
    const { $schema: _schema, ...rest } = config as typeof config & { $schema?: string };
    await expect(validateConfiguration(rest as never, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...rest, linux: { ...rest.linux, notAnOption: true } } as never, new DebugLogger(false))).rejects.toThrow(/Invalid configuration object/);
    expect([...config.linux.target, ...config.mac.target, ...config.win.target]).toEqual(['deb', 'AppImage', 'dmg', 'nsis']);
    expect(config.protocols[0]!.schemes).toEqual(['signing-station']);
  });

  it('packs the built main, preload, renderer and CLI, and no source maps', async () => {
    const out = (await walk('out')).map((path) => relative('.', path));
    for (const needed of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'out/cli/main.js', 'out/iframe/iframe-helper.js']) {
      expect(out, `${needed} is built (npm run build)`).toContain(needed);
      expect(packed(needed), needed).toBe(true);
    }
    expect(out.filter((path) => path.endsWith('.js') && path.startsWith('out/renderer/')).every(packed)).toBe(true);
    expect(packed('out/renderer/assets/index.js.map')).toBe(false);
    expect(packed('src/main/index.ts')).toBe(false);
  });

  it('unpacks every native module the station loads from the archive (a .node file cannot be loaded from inside asar)', async () => {
    const manifest = JSON.parse(await readFile('package.json', 'utf8')) as { dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };
    const dependencies = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
    const natives = (await walk('node_modules'))
      .map((path) => relative('.', path))
      .filter((path) => path.endsWith('.node') && !path.includes('/obj.target/') && dependencies.some((name) => path.startsWith(`node_modules/${name.split('/')[0]}/`)));
    expect(natives).toEqual(expect.arrayContaining(['node_modules/pkcs11js/build/Release/pkcs11.node', 'node_modules/sqlite3/build/Release/node_sqlite3.node', 'node_modules/smartcard/build/Release/smartcard_napi.node']));
    expect(natives.some((path) => path.startsWith('node_modules/@napi-rs/keyring'))).toBe(true);
    for (const native of natives) expect(unpacked(native), native).toBe(true);
    expect(unpacked('out/main/index.js')).toBe(false);
    expect(existsSync('resources/icon.png')).toBe(true);
  });
});
