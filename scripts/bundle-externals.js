/**
 * What both bundles (the CLI's, by esbuild in build.js, and the Electron main's, by electron-vite) leave to Node
 * at run time: native packages, whose .node files are found from their own package, and oidc-provider, which
 * loads parts of itself by computed paths. Everything else is bundled: resolving and reading a thousand modules
 * was most of a start.
 */
export const BUNDLE_EXTERNALS = ['sqlite3', 'pkcs11js', 'smartcard', '@napi-rs/keyring', 'oidc-provider'];
