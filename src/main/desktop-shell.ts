import { app, Menu, Notification, shell, Tray, nativeImage, type BrowserWindow } from 'electron';
import { basename, join } from 'node:path';
import type { Station } from '../station/create-station.js';
import type { StationState } from '../core/schemas/station-state.js';
import { shellChannels } from '../core/ipc/shell-api.js';
import { DEEP_LINK_SCHEME, filesOfDeepLink, filesToOpen } from './open-request.js';
import { auditAdvanced, notificationsBetween } from './shell-notifications.js';
import { readOpenedFiles, recentDocuments } from './opened-files.js';
import { shellMessagesFor, type ShellMessages } from './shell-messages.js';
import { registerSavedFileActions } from './saved-file-actions.js';
import { registerChooseOutputFolder } from './choose-output-folder.js';

const RECENT_DOCUMENTS = 5;

export interface DesktopShellHost {
  station: Station;
  showWindow(): void;
  window(): BrowserWindow | undefined;
}

/**
 * What the desktop app adds around the station window: a tray menu with the last signed and timestamped files and
 * a way to open the window in the browser, native notifications for pending prompts and finished signatures, and
 * documents opened with the app (file association, `signing-station://sign?file=` deep links, a second launch),
 * and the window's reach into the OS for its results: open one, show it in its folder, choose the output folder.
 */
export function installDesktopShell(host: DesktopShellHost): void {
  const messages = shellMessagesFor(app.getPreferredSystemLanguages());
  const tray = new Tray(nativeImage.createFromPath(join(import.meta.dirname, '../../resources/icon.png')));
  tray.setToolTip('Signing Station');
  const refreshTray = (): void =>
    void recentDocuments(host.station.window.outputDir, RECENT_DOCUMENTS).then((recent) => tray.setContextMenu(trayMenu(host, recent, messages)));
  refreshTray();
  let previous: StationState | undefined;
  host.station.window.feed.subscribe((state) => {
    notify(notificationsBetween(previous, state, messages), host.showWindow);
    if (auditAdvanced(previous, state)) refreshTray();
    previous = state;
  });

  // Only the station's own page in the window may ask main for these; a frame of another origin is refused.
  const isStationFrame = (url: string | undefined): boolean => Boolean(url && URL.canParse(url) && new URL(url).origin === new URL(host.station.baseUrl).origin);
  const outputDir = (): string => host.station.window.outputDir;
  registerSavedFileActions(outputDir, isStationFrame);
  registerChooseOutputFolder({ outputDir, window: host.window, title: messages.chooseOutputFolder, isStationFrame });

  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    void sendFiles(host, filesOfDeepLink(url));
  });
  app.on('open-file', (event, path) => {
    event.preventDefault();
    void sendFiles(host, [path]);
  });
  app.on('second-instance', (_event, argv, workingDirectory) => void sendFiles(host, filesToOpen(argv, workingDirectory)));
  void sendFiles(host, filesToOpen(process.argv, process.cwd()));
}

function trayMenu(host: DesktopShellHost, recent: string[], messages: ShellMessages): Menu {
  return Menu.buildFromTemplate([
    { label: messages.openWindow, click: host.showWindow },
    // A one-time link for the user's browser: the window's replacement on a machine without a display for Electron.
    // Opened through the launch page, so the link is on no opener's command line.
    { label: messages.openInBrowser, click: () => void host.station.uiLaunchPage().then((page) => shell.openPath(page)) },
    { type: 'separator' },
    ...(recent.length > 0
      ? recent.map((path) => ({ label: basename(path), click: () => shell.showItemInFolder(path) }))
      : [{ label: messages.noDocumentsYet, enabled: false }]),
    { type: 'separator' },
    { label: messages.quit, click: () => app.quit() },
  ]);
}

function notify(notifications: ReturnType<typeof notificationsBetween>, showWindow: () => void): void {
  if (!Notification.isSupported()) return;
  for (const { title, body, opensWindow } of notifications) {
    const notification = new Notification({ title, body });
    if (opensWindow) notification.on('click', showWindow);
    notification.show();
  }
}

/** Reads the files main was asked to open and hands them to the window's Sign screen. */
async function sendFiles(host: DesktopShellHost, paths: string[]): Promise<void> {
  const files = await readOpenedFiles(paths);
  if (files.length === 0) return;
  host.showWindow();
  const window = host.window();
  if (!window) return;
  const send = (): void => window.webContents.send(shellChannels.openFiles, files);
  if (window.webContents.isLoading()) window.webContents.once('did-finish-load', send);
  else send();
}
