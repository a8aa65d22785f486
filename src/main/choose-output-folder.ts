import { dialog, ipcMain, type BrowserWindow } from 'electron';
import { shellChannels, type IpcResult } from '../core/ipc/shell-api.js';

/**
 * The OS's folder dialog for the window's "Change…" of the output folder, opened at the current one: answers the
 * folder chosen (null when the user cancels). Only the station's own page may ask; the station checks and stores
 * the folder when the window sends it on.
 */
export function registerChooseOutputFolder(deps: { outputDir: () => string; window: () => BrowserWindow | undefined; title: string; isStationFrame: (url: string | undefined) => boolean }): void {
  ipcMain.handle(shellChannels.chooseOutputFolder, async (event): Promise<IpcResult<string | null>> => {
    if (!deps.isStationFrame(event.senderFrame?.url)) return { ok: false, error: { code: 'ERR_UI_SESSION_REQUIRED', message: 'Only the station window may choose its folder.' } };
    const options = { title: deps.title, defaultPath: deps.outputDir(), properties: ['openDirectory' as const, 'createDirectory' as const] };
    const parent = deps.window();
    const { canceled, filePaths } = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    return { ok: true, value: canceled ? null : (filePaths[0] ?? null) };
  });
}
