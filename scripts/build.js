// npm run build: the Electron main/preload and the station UI (electron-vite), the iframe helper page's script
// (esbuild, one small IIFE), then the Node code that the CLI runs (tsc to out/node). Runs on `npm install`
// through the `prepare` script.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';

const steps = [
  ['electron-vite', ['build']],
  ['esbuild', ['src/iframe/main.ts', '--bundle', '--format=iife', '--minify', '--target=es2020', '--outfile=out/iframe/iframe-helper.js']],
  ['tsc', ['-p', 'tsconfig.node.json']],
  ['node', ['scripts/build-client.js']],
];
for (const [command, args] of steps) {
  const started = Date.now();
  const run = spawnSync('npx', ['--no-install', command, ...args], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) {
    console.error(`build: ${command} ${args.join(' ')} failed`);
    process.exit(run.status ?? 1);
  }
  console.log(`build: ${command} ${args.join(' ')} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
mkdirSync('out/iframe', { recursive: true });
copyFileSync('src/iframe/iframe-helper.css', 'out/iframe/iframe-helper.css');
