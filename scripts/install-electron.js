// Electron's own postinstall downloads its binary; it is denied in allowScripts so that an offline or
// firewalled install does not roll back the whole tree. Try the download here and tolerate its failure:
// without the binary `npm start` runs the same station headless.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let installer;
try {
  installer = require.resolve('electron/install.js');
} catch {
  process.exit(0); // production install without devDependencies: nothing to do
}
if (process.env.CI || process.env.SIGNING_STATION_SKIP_ELECTRON_DOWNLOAD) {
  console.log('signing-station: skipping the Electron binary download (CI); `npm start` will run headless.');
  process.exit(0);
}
const result = spawnSync(process.execPath, [installer], { stdio: 'inherit', timeout: 120_000 });
if (result.status === 0 && existsSync(new URL('path.txt', new URL('.', `file://${installer}`)))) {
  console.log('signing-station: Electron binary installed; `npm start` opens the desktop app.');
} else {
  console.warn(
    'signing-station: the Electron binary could not be downloaded (no network to its host?).\n' +
      '  `npm start` will run the station headless and print the UI address.\n' +
      '  To get the desktop app later: node node_modules/electron/install.js',
  );
}
