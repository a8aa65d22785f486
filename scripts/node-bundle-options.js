// esbuild's options for the station's Node code, shared by the CLI's build (build-cli.js) and the benchmarks'
// station processes (test/support/bench/bundle-bench-server.ts): a benchmark measures the code users run.
import { MODULE_EXTERNALS, NATIVE_EXTERNALS } from './bundle-externals.js';

/** @type {import('esbuild').BuildOptions} */
export const NODE_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // Whitespace and syntax only: less of serve's chunk to parse and a smaller idle RSS (docs/performance.md#start-up);
  // identifiers stay, so stack traces keep their function names.
  minifyWhitespace: true,
  minifySyntax: true,
  // The CommonJS builds of the @peculiar packages require('tslib'), which esbuild would resolve to tslib's ES
  // module (the `module` condition) and copy into a fresh CommonJS object at each of their requires, a visible part
  // of a start (docs/performance.md#start-up). Its CommonJS file is evaluated once.
  alias: { tslib: 'tslib/tslib.js' },
  // Fastify's JSON schema compilers stay out: the station gives Fastify compiler factories of its own
  // (create-http-server.ts), so they are never required and need not be parsed with serve's chunk.
  external: [...NATIVE_EXTERNALS, ...MODULE_EXTERNALS, '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'],
};
