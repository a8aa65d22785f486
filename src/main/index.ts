import { app, BrowserWindow, dialog, ipcMain, shell } from 'electron';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import type { Station } from '../station/create-station.js';
import { shellChannels, setStartAtLoginSchema, type IpcResult } from '../core/ipc/shell-api.js';
import { installDesktopShell } from './desktop-shell.js';
import { quitAfterStationCloses } from './quit-after-station-closes.js';
import { shellMessagesFor } from './shell-messages.js';

// Thin host: the station (server, tokens, store) is the same code the headless CLI runs; this file only owns
// the window, the tray, the single-instance lock and login-item settings. The station's code is imported once
// the app is ready and this is the only instance: a second launch quits before parsing any of it.

let station: Station | undefined;
let window: BrowserWindow | undefined;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => showWindow());
  app.whenReady().then(start).catch((error: unknown) => {
    console.error(`signing-station: ${error instanceof Error ? error.message : String(error)}`);
    app.exit(1);
  });
}

/** Electron's Node has the runtime's compile cache (Node 22.1 and later), as the CLI does (src/cli/launch.ts). */
const { enableCompileCache } = nodeModule as { enableCompileCache?: (directory: string) => unknown };

async function start(): Promise<void> {
  // Before the station's modules load: the next launch deserializes their bytecode instead of compiling it.
  enableCompileCache?.(join(app.getPath('userData'), 'code-cache'));
  const [{ createStation }, { loadStationConfig }, { OsKeyStore }, { runningStationWindow }] = await Promise.all([
    import('../station/create-station.js'),
    import('../station/config/load-station-config.js'),
    import('../station/keychain/os-key-store.js'),
    import('../station/running-station-window.js'),
  ]);
  const config = await loadStationConfig(process.env.SIGNING_STATION_CONFIG, {});
  try {
    station = await createStation(config, { keyStore: new OsKeyStore() });
  } catch (error) {
    // Another station (`serve`) holds the directory: open its window and say so, instead of failing.
    const running = await runningStationWindow(error, config.dataDir);
    if (!running) throw error;
    await shell.openPath(running.launchPage);
    await dialog.showMessageBox({ type: 'info', title: 'Signing Station', message: shellMessagesFor(app.getPreferredSystemLanguages()).alreadyRunning(running.baseUrl) });
    app.quit();
    return;
  }
  registerIpc();
  showWindow();
  installDesktopShell({ station, showWindow, window: () => (window && !window.isDestroyed() ? window : undefined) });
  // The station's prompts (consent, PIN) are answered in this window: bring it forward when one arrives, even
  // from the tray, so a web page's request never waits unseen.
  station.prompts.onChange(() => {
    if (station?.prompts.pending().length) showWindow();
  });
  app.on('window-all-closed', () => undefined); // keep serving from the tray
  app.on(
    'before-quit',
    quitAfterStationCloses({
      station: () => station,
      forgetStation: () => (station = undefined),
      quit: () => app.quit(),
      logError: (message) => console.error(message),
    }),
  );
}

function showWindow(): void {
  if (!station) return;
  if (window && !window.isDestroyed()) {
    window.show();
    window.focus();
    return;
  }
  const own = new URL(station.baseUrl).origin;
  window = new BrowserWindow({
    width: 1100,
    height: 760,
    title: 'Signing Station',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (new URL(url).origin !== own) event.preventDefault();
  });
  void window.loadURL(`${station.baseUrl}/ui/`);
}

function registerIpc(): void {
  // Only the station's own page in this window gets a credential: a frame of another origin asking is refused.
  ipcMain.handle(shellChannels.uiCredential, (event): IpcResult<string> => {
    const sender = event.senderFrame?.url;
    if (!station || !sender || new URL(sender).origin !== new URL(station.baseUrl).origin) {
      return { ok: false, error: { code: 'ERR_UI_SESSION_REQUIRED', message: 'Only the station window may ask for its credential.' } };
    }
    return { ok: true, value: station.issueUiCredential() };
  });
  ipcMain.handle(shellChannels.getStartAtLogin, (): IpcResult<boolean> => ({ ok: true, value: app.getLoginItemSettings().openAtLogin }));
  ipcMain.handle(shellChannels.setStartAtLogin, (_event, raw: unknown): IpcResult<boolean> => {
    const parsed = setStartAtLoginSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, error: { code: 'ERR_INPUT_INVALID', message: 'expected {enabled: boolean}' } };
    app.setLoginItemSettings({ openAtLogin: parsed.data.enabled });
    return { ok: true, value: parsed.data.enabled };
  });
}
