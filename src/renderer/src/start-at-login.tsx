import { useEffect, useState, type JSX } from 'react';
import type { IpcResult } from '../../core/ipc/shell-api.js';
import { ErrorAlert } from './error-alert.js';

/**
 * "Start at login", through the desktop shell's preload API (`window.stationShell`). Absent in a plain browser
 * (the headless station's UI page), where there is no login item to set: then nothing is shown.
 */
export function StartAtLogin(): JSX.Element | null {
  const shell = window.stationShell;
  const [enabled, setEnabled] = useState<boolean>();
  const [error, setError] = useState<string>();

  const take = (result: IpcResult<boolean>): void => {
    if (result.ok) {
      setEnabled(result.value);
      setError(undefined);
    } else setError(result.error.message);
  };

  useEffect(() => {
    if (shell) void shell.getStartAtLogin().then(take);
  }, [shell]);

  if (!shell) return null;
  return (
    <div className="start-at-login">
      <label>
        <input type="checkbox" checked={enabled ?? false} disabled={enabled === undefined} onChange={(event) => void shell.setStartAtLogin(event.target.checked).then(take)} />{' '}
        Start Signing Station when I log in
      </label>
      <ErrorAlert message={error} />
    </div>
  );
}
