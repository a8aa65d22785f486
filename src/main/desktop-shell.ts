import { app, Menu, Notification, shell, Tray, nativeImage, type BrowserWindow } from 'electron';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Station } from '../station/create-station.js';
import type { StationState } from '../core/schemas/station-state.js';
import { shellChannels, type OpenedFile } from '../core/ipc/shell-api.js';
import { DEEP_LINK_SCHEME, filesOfDeepLink, filesToOpen } from './open-request.js';

const RECENT_DOCUMENTS = 5;
/** A file opened with the app travels to the window in one message: the desk's own body limit. */
const MAX_OPENED_BYTES = 400 * 1024 * 1024;

export interface DesktopShellHost {
  station: Station;
  showWindow(): void;
  window(): BrowserWindow | undefined;
}

/**
 * What the desktop app adds around the station window: a tray menu with the last signed and timestamped files and
 * a way to open the window in the browser, native notifications for pending prompts and finished signatures, and
 * documents opened with the app (file association, `signing-station://sign?file=` deep links, a second launch).
 */
export function installDesktopShell(host: DesktopShellHost): void {
  const tray = new Tray(nativeImage.createFromPath(join(import.meta.dirname, '../../resources/icon.png')));
  tray.setToolTip('Signing Station');
  const refreshTray = (): void => void recentDocuments(host.station.window.outputDir).then((recent) => tray.setContextMenu(trayMenu(host, recent)));
  refreshTray();
  let previous: StationState | undefined;
  host.station.window.feed.subscribe((state) => {
    notifyChanges(previous, state, host.showWindow);
    if (previous && state.audit[0]?.id !== previous.audit[0]?.id) refreshTray();
    previous = state;
  });

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

function trayMenu(host: DesktopShellHost, recent: string[]): Menu {
  return Menu.buildFromTemplate([
    { label: 'Open Signing Station', click: host.showWindow },
    // A one-time link for the user's browser: the window's replacement on a machine without a display for Electron.
    { label: 'Open in browser', click: () => void shell.openExternal(host.station.uiUrl()) },
    { type: 'separator' },
    ...(recent.length > 0
      ? recent.map((path) => ({ label: basename(path), click: () => shell.showItemInFolder(path) }))
      : [{ label: 'No signed documents yet', enabled: false }]),
    { type: 'separator' },
    { label: 'Quit', click: () => app.quit() },
  ]);
}

/** The newest files in the output folder, newest first. */
async function recentDocuments(directory: string): Promise<string[]> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const dated = await Promise.all(names.map(async (name) => ({ path: join(directory, name), time: (await stat(join(directory, name))).mtimeMs })));
  return dated.sort((a, b) => b.time - a.time).slice(0, RECENT_DOCUMENTS).map((entry) => entry.path);
}

function notifyChanges(previous: StationState | undefined, state: StationState, showWindow: () => void): void {
  if (!previous || !Notification.isSupported()) return;
  const known = new Set(previous.prompts.map((prompt) => prompt.id));
  const arrived = state.prompts.find((prompt) => !known.has(prompt.id));
  if (arrived) {
    const notification = new Notification({ title: 'Signing Station is waiting for you', body: `${arrived.request.requester}: ${arrived.kind === 'pin' ? 'enter your PIN' : 'confirm in the window'}` });
    notification.on('click', showWindow);
    notification.show();
  }
  const signed = state.audit.find((entry) => entry.outcome === 'signed' && entry.id > (previous.audit[0]?.id ?? 0));
  if (signed) new Notification({ title: 'Signed', body: signed.documentName ?? signed.documentDigest.slice(0, 16) }).show();
}

/** Reads the files main was asked to open and hands them to the window's Sign screen. */
async function sendFiles(host: DesktopShellHost, paths: string[]): Promise<void> {
  const files: OpenedFile[] = [];
  for (const path of paths) {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || info.size > MAX_OPENED_BYTES) continue;
    files.push({ name: basename(path), bytes: new Uint8Array(await readFile(path)) });
  }
  if (files.length === 0) return;
  host.showWindow();
  const window = host.window();
  if (!window) return;
  const send = (): void => window.webContents.send(shellChannels.openFiles, files);
  if (window.webContents.isLoading()) window.webContents.once('did-finish-load', send);
  else send();
}
