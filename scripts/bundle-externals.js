/**
 * What both bundles (the CLI's, by esbuild in build-cli.js, and the Electron main's, by electron-vite) leave to
 * Node at run time. Everything else is bundled: resolving and reading a thousand modules was most of a start.
 */

/**
 * Native packages, whose .node files are found from their own package. They are CommonJS, and both bundles load
 * them with `require` (the CLI's is CommonJS; the Electron main's through require-externals-vite.js).
 */
export const NATIVE_EXTERNALS = ['sqlite3', 'pkcs11js', 'smartcard', '@napi-rs/keyring'];

/** oidc-provider, an ES module that loads parts of itself by computed paths. */
export const MODULE_EXTERNALS = ['oidc-provider'];
