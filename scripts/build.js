// npm run build: the Electron main/preload and the station UI (electron-vite), the iframe helper page's script
// (esbuild, one small IIFE), the Node code that the CLI runs (scripts/build-cli.js), then the browser client
// (scripts/build-client.js). Types are checked by
// `npm run typecheck` (npm test), not here: the install must not depend on the optional `smartcard` package's
// types being present. Runs on `npm install` through the `prepare` script.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';

const steps = [
  ['electron-vite', ['build']],
  ['esbuild', ['src/iframe/main.ts', '--bundle', '--format=iife', '--minify', '--target=es2020', '--outfile=out/iframe/iframe-helper.js']],
  ['node', ['scripts/build-cli.js']],
  ['node', ['scripts/build-client.js']],
];
rmSync('out/cli', { recursive: true, force: true });
for (const [command, args] of steps) {
  const started = Date.now();
  const run = spawnSync('npx', ['--no-install', command, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) {
    console.error(`build: ${command} ${args[0]} failed`);
    process.exit(run.status ?? 1);
  }
  console.log(`build: ${command} ${args[0]} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
mkdirSync('out/iframe', { recursive: true });
copyFileSync('src/iframe/iframe-helper.css', 'out/iframe/iframe-helper.css');
