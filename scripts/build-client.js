// The browser client (src/client): one IIFE (global serviceBrowserClient), one ESM file and one bundled .d.ts in
// out/client, each stamped with the client package's version, plus that package.json and README so that
// `npm pack ./out/client` makes the client's own npm package, and a gzip and a brotli copy of each file for the
// station to serve (compressed once here at the strongest settings, never per request; the package leaves them out).
// Run by scripts/build.js.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const { name, version } = JSON.parse(readFileSync('src/client/package.json', 'utf8'));
const banner = `/*! ${name} ${version} | MIT */`;
const common = ['--bundle', '--minify', '--log-level=warning', '--target=es2020', `--define:CLIENT_VERSION=${JSON.stringify(version)}`, `--banner:js=${banner}`];
const steps = [
  ['esbuild', ['src/client/global.ts', ...common, '--format=iife', '--outfile=out/client/service-browser-client.js']],
  ['esbuild', ['src/client/index.ts', ...common, '--format=esm', '--outfile=out/client/service-browser-client.mjs']],
  ['dts-bundle-generator', ['--silent', '--no-banner', '--inline-declare-global', '--project', 'tsconfig.web.json', '-o', 'out/client/service-browser-client.d.ts', 'src/client/global.ts']],
];
mkdirSync('out/client', { recursive: true });
for (const [command, args] of steps) {
  const run = spawnSync('npx', ['--no-install', command, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) {
    console.error(`build-client: ${command} failed`);
    process.exit(run.status ?? 1);
  }
}
const typings = readFileSync('out/client/service-browser-client.d.ts', 'utf8');
writeFileSync('out/client/service-browser-client.d.ts', `${banner}\n${typings}`);
copyFileSync('src/client/package.json', 'out/client/package.json');
copyFileSync('src/client/README.md', 'out/client/README.md');
for (const file of ['service-browser-client.js', 'service-browser-client.mjs', 'service-browser-client.d.ts']) {
  const body = readFileSync(`out/client/${file}`);
  writeFileSync(`out/client/${file}.gz`, gzipSync(body, { level: 9 }));
  writeFileSync(`out/client/${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
}
