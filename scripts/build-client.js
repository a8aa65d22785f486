// The browser client (src/client): one IIFE (global serviceBrowserClient), one ESM file and one bundled .d.ts in
// out/client, each stamped with the client package's version, plus that package.json and README so that
// `npm pack out/client` makes the client's own npm package. Run by scripts/build.js.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';

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
