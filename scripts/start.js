// npm start: the desktop app when Electron's binary is installed, otherwise the same station headless, with its
// window opened in the user's browser (as notebook servers do; `--no-browser` to skip). Other arguments go to
// `signing-station serve` in the headless case. BROWSER names another program to open the link with. The station
// opens it itself (`serve --open`), through a page in its data directory: a link on an opener's command line
// would be readable by every local user.
import { existsSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function electronBinary() {
  try {
    const dir = dirname(require.resolve('electron/package.json'));
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const args = process.argv.slice(2);
const noBrowser = args.includes('--no-browser');
const serveArgs = args.filter((arg) => arg !== '--no-browser');
const binary = electronBinary();
const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const desktop = Boolean(binary && hasDisplay);
if (!desktop) {
  console.error(binary ? 'start: no display; running the station headless.' : 'start: Electron binary not installed; running the station headless.');
}
const child = desktop
  ? spawn(binary, ['.'], { stdio: 'inherit' })
  : spawn(process.execPath, ['bin/signing-station.js', 'serve', ...serveArgs, ...(noBrowser ? [] : ['--open'])], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
