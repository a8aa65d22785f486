import { contextBridge, ipcRenderer } from 'electron';
import { shellChannels, type StationShellApi } from '../core/ipc/shell-api.js';

// The station window's only bridge to the main process. No logic here: main validates every argument.
const api: StationShellApi = {
  platform: process.platform,
  getStartAtLogin: () => ipcRenderer.invoke(shellChannels.getStartAtLogin),
  setStartAtLogin: (enabled) => ipcRenderer.invoke(shellChannels.setStartAtLogin, { enabled }),
  uiCredential: () => ipcRenderer.invoke(shellChannels.uiCredential),
  showItemInFolder: (path) => ipcRenderer.invoke(shellChannels.showItemInFolder, { path }),
};

contextBridge.exposeInMainWorld('stationShell', api);
