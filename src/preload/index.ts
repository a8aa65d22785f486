import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { shellChannels, type OpenedFile, type StationShellApi } from '../core/ipc/shell-api.js';

// The station window's only bridge to the main process. No logic here: main validates every argument.
const api: StationShellApi = {
  platform: process.platform,
  getStartAtLogin: () => ipcRenderer.invoke(shellChannels.getStartAtLogin),
  setStartAtLogin: (enabled) => ipcRenderer.invoke(shellChannels.setStartAtLogin, { enabled }),
  uiCredential: () => ipcRenderer.invoke(shellChannels.uiCredential),
  showItemInFolder: (path) => ipcRenderer.invoke(shellChannels.showItemInFolder, { path }),
  openSavedFile: (path) => ipcRenderer.invoke(shellChannels.openSavedFile, { path }),
  chooseOutputFolder: () => ipcRenderer.invoke(shellChannels.chooseOutputFolder),
  onOpenFiles: (listener) => {
    const relay = (_event: IpcRendererEvent, files: OpenedFile[]): void => listener(files);
    ipcRenderer.on(shellChannels.openFiles, relay);
    return () => ipcRenderer.removeListener(shellChannels.openFiles, relay);
  },
};

contextBridge.exposeInMainWorld('stationShell', api);
