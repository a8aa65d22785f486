import { ipcMain, shell } from 'electron';
import { resolve, sep } from 'node:path';
import { shellChannels, showItemInFolderSchema, type IpcResult } from '../core/ipc/shell-api.js';

/**
 * Lets the station window show a saved result in the OS file manager, and nothing else: only files inside the
 * station's output folder, asked by the station's own page (`isStationFrame`).
 */
export function registerShowItemInFolder(outputDir: () => string, isStationFrame: (url: string | undefined) => boolean): void {
  ipcMain.handle(shellChannels.showItemInFolder, (event, raw: unknown): IpcResult<boolean> => {
    const parsed = showItemInFolderSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, error: { code: 'ERR_INPUT_INVALID', message: 'expected {path: string}' } };
    const path = resolve(parsed.data.path);
    if (!isStationFrame(event.senderFrame?.url) || !path.startsWith(resolve(outputDir()) + sep)) {
      return { ok: false, error: { code: 'ERR_UI_SESSION_REQUIRED', message: 'Only the station window may show the files it saved.' } };
    }
    shell.showItemInFolder(path);
    return { ok: true, value: true };
  });
}
