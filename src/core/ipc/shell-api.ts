import * as z from 'zod';

/** IPC between the Electron main process and the station window's preload: one channel per call. */
export const shellChannels = {
  getStartAtLogin: 'shell:get-start-at-login',
  setStartAtLogin: 'shell:set-start-at-login',
  uiCredential: 'shell:ui-credential',
  showItemInFolder: 'shell:show-item-in-folder',
  openSavedFile: 'shell:open-saved-file',
  chooseOutputFolder: 'shell:choose-output-folder',
  /** main → window: files the user opened with the app (file association, deep link, second launch). */
  openFiles: 'shell:open-files',
} as const;

/** A document handed to the window to sign: read by main, which may read the user's files; the window may not. */
export interface OpenedFile {
  name: string;
  bytes: Uint8Array;
}

export const setStartAtLoginSchema = z.object({ enabled: z.boolean() });
/** A file the station saved, for main to show in its folder or open with the OS's app for its type. */
export const savedFilePathSchema = z.object({ path: z.string().min(1).max(4096) });

/** IPC answers `{ok, value|error}` (docs/architecture.md#errors): errors cross as data, never as thrown objects. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** What the preload exposes on `window.stationShell`; absent in a plain browser (headless station UI). */
export interface StationShellApi {
  readonly platform: string;
  getStartAtLogin(): Promise<IpcResult<boolean>>;
  setStartAtLogin(enabled: boolean): Promise<IpcResult<boolean>>;
  /** The station UI credential for this window, so the window never needs a launch link. */
  uiCredential(): Promise<IpcResult<string>>;
  /** Shows a file the station saved (a signed document, a timestamp) in the OS file manager. */
  showItemInFolder?(path: string): Promise<IpcResult<boolean>>;
  /** Opens a file the station saved with the OS's app for its type. */
  openSavedFile?(path: string): Promise<IpcResult<boolean>>;
  /** The OS's folder dialog for the output folder: the folder chosen, or null when the user cancelled. */
  chooseOutputFolder?(): Promise<IpcResult<string | null>>;
  /** Calls `listener` with the files the user opens with the app; returns a function that stops listening. */
  onOpenFiles?(listener: (files: OpenedFile[]) => void): () => void;
}

declare global {
  interface Window {
    readonly stationShell?: StationShellApi;
  }
}
