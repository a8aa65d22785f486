/**
 * An esbuild plugin that loads the given external packages with the bundle's `require` (the banner's
 * createRequire) instead of an ES `import`. They are CommonJS; imported as ES modules, Node first runs its
 * CommonJS export lexer over each of their files to guess named exports (7 ms of a start for the four native
 * packages). Through `require` they load as plain CommonJS, and esbuild's interop gives the default and named
 * imports the same values Node's would.
 * @param {string[]} names package names, matched exactly
 * @returns {import('esbuild').Plugin}
 */
export function requireExternals(names) {
  const filter = new RegExp(`^(${names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
  return {
    name: 'require-externals',
    setup(build) {
      build.onResolve({ filter }, (args) =>
        args.kind === 'require-call' ? { path: args.path, external: true } : { path: args.path, namespace: 'require-external' },
      );
      build.onLoad({ filter: /.*/, namespace: 'require-external' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  };
}
