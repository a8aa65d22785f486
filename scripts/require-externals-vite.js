const VIRTUAL_PREFIX = '\0require-external:';

/**
 * A Vite/Rolldown plugin for the Electron main bundle (an ES module) that loads the given CommonJS packages with
 * `require` (Rolldown's createRequire shim) instead of an ES `import`, which would first run Node's CommonJS export
 * lexer over their files (the CLI's bundle is CommonJS and requires them anyway). An `import` of one of them resolves to a small CommonJS module
 * that requires it; Rolldown's interop gives default and named imports the values Node's would. The packages must
 * not also be listed in rollupOptions.external, which would take them before this plugin sees them.
 * @param {string[]} names package names, matched exactly
 * @returns {import('vite').Plugin}
 */
export function requireExternalsVite(names) {
  return {
    name: 'require-externals',
    enforce: 'pre',
    resolveId(source, _importer, options) {
      if (!names.includes(source)) return null;
      return options?.kind === 'require-call' ? { id: source, external: true } : VIRTUAL_PREFIX + source;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL_PREFIX)) return null;
      return { code: `module.exports = require(${JSON.stringify(id.slice(VIRTUAL_PREFIX.length))});`, moduleType: 'js' };
    },
  };
}
