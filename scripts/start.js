// npm start: the desktop app when Electron's binary is installed, otherwise the same station headless
// (it prints the UI address). Extra arguments go to `signing-station serve` in the headless case.
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

const binary = electronBinary();
const hasDisplay = process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const [command, args] =
  binary && hasDisplay
    ? [binary, ['.']]
    : [process.execPath, ['bin/signing-station.js', 'serve', ...process.argv.slice(2)]];
if (command === process.execPath) {
  console.error(
    binary ? 'start: no display; running the station headless.' : 'start: Electron binary not installed; running the station headless.',
  );
}
const child = spawn(command, args, { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
