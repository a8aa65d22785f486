import { ipcMain, shell } from 'electron';
import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { shellChannels, savedFilePathSchema, type IpcResult } from '../core/ipc/shell-api.js';

type Refusal = Extract<IpcResult<never>, { ok: false }>;

/**
 * Lets the station window open a result it saved, or show it in the OS file manager, and nothing else: asked by the
 * station's own page (`isStationFrame`), for a regular file directly in the output folder once links are resolved
 * (a link planted there, or `..`, leads nowhere else). Any other path is refused before the OS sees it.
 */
export function registerSavedFileActions(outputDir: () => string, isStationFrame: (url: string | undefined) => boolean): void {
  const handle = (channel: string, act: (path: string) => Promise<IpcResult<boolean>>): void => {
    ipcMain.handle(channel, async (event, raw: unknown): Promise<IpcResult<boolean>> => {
      const parsed = savedFilePathSchema.safeParse(raw);
      if (!parsed.success) return refusal('ERR_INPUT_INVALID', 'expected {path: string}');
      if (!isStationFrame(event.senderFrame?.url)) return refusal('ERR_UI_SESSION_REQUIRED', 'Only the station window may open the files it saved.');
      const path = await savedFile(parsed.data.path, outputDir());
      return path === undefined ? refusal('ERR_DESK_SAVED_NOT_FOUND', 'No such file in the output folder.') : act(path);
    });
  };
  handle(shellChannels.showItemInFolder, async (path) => {
    shell.showItemInFolder(path);
    return { ok: true, value: true };
  });
  handle(shellChannels.openSavedFile, async (path) => {
    // openPath answers the OS's reason as text ("" when it opened): no app for the type is the usual one.
    const failure = await shell.openPath(path);
    return failure ? refusal('ERR_DESK_OPEN_FAILED', failure) : { ok: true, value: true };
  });
}

/** The real path of `path` if it is a regular file directly in the output folder, else undefined. */
async function savedFile(path: string, outputDir: string): Promise<string | undefined> {
  const [real, folder] = await Promise.all([realpath(path).catch(() => undefined), realpath(outputDir).catch(() => undefined)]);
  if (real === undefined || folder === undefined || dirname(real) !== folder) return undefined;
  return (await stat(real)).isFile() ? real : undefined;
}

const refusal = (code: string, message: string): Refusal => ({ ok: false, error: { code, message } });
