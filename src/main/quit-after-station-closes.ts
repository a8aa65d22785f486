/**
 * The app's before-quit handler. Quitting waits for the station to close (server drained, tokens released, store
 * closed), so nothing is left half-written: the first quit is held back, the station closes, then the app quits for
 * real; a quit asked for meanwhile joins the same close.
 */
export function quitAfterStationCloses(host: {
  station(): { close(): Promise<void> } | undefined;
  /** Called once the station is closed, before quitting: the next before-quit must let the app go. */
  forgetStation(): void;
  quit(): void;
  logError(message: string): void;
}): (event: { preventDefault(): void }) => void {
  let closing: Promise<void> | undefined;
  return (event) => {
    const running = host.station();
    if (!running) return;
    event.preventDefault();
    closing ??= running
      .close()
      .catch((error: unknown) => host.logError(`signing-station: closing failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        host.forgetStation();
        host.quit();
      });
  };
}
