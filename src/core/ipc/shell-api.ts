import * as z from 'zod';

/** IPC between the Electron main process and the station window's preload: one channel per call. */
export const shellChannels = {
  getStartAtLogin: 'shell:get-start-at-login',
  setStartAtLogin: 'shell:set-start-at-login',
  uiCredential: 'shell:ui-credential',
} as const;

export const setStartAtLoginSchema = z.object({ enabled: z.boolean() });

/** IPC answers `{ok, value|error}` (DESIGN.md): errors cross as data, never as thrown objects. */
export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** What the preload exposes on `window.stationShell`; absent in a plain browser (headless station UI). */
export interface StationShellApi {
  readonly platform: string;
  getStartAtLogin(): Promise<IpcResult<boolean>>;
  setStartAtLogin(enabled: boolean): Promise<IpcResult<boolean>>;
  /** The station UI credential for this window, so the window never needs a launch link. */
  uiCredential(): Promise<IpcResult<string>>;
}

declare global {
  interface Window {
    readonly stationShell?: StationShellApi;
  }
}
