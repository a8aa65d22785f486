import { useContext, useState, type JSX } from 'react';
import type { DeskSavedFile } from '../../../core/schemas/desk-api.js';
import type { IpcResult } from '../../../core/ipc/shell-api.js';
import { useI18n } from '../i18n/i18n.js';
import { downloadSaved } from '../signing/download-saved.js';
import { VerifySavedContext } from '../verify/verify-saved-context.js';
import { ErrorAlert } from './error-alert.js';

/**
 * Where a result went, and what to do with it: in the desktop app open it, or show it in the file manager; in a
 * browser tab, which cannot reach the folder, a download of the file itself; in both, verify it. `data`: the file
 * a timestamp token is over, verified with it.
 */
export function SavedFile({ saved, heading, data }: { saved: DeskSavedFile; heading: string; data?: File }): JSX.Element {
  const { t } = useI18n();
  // The desktop app's calls (plain functions over IPC, no `this`); absent in a browser tab.
  const open = window.stationShell?.openSavedFile;
  const showInFolder = window.stationShell?.showItemInFolder;
  const verify = useContext(VerifySavedContext);
  const [error, setError] = useState<unknown>();
  // Main answers a refusal or the OS's failure as data: shown as any other error.
  const viaShell = (call: (path: string) => Promise<IpcResult<boolean>>): void => {
    setError(undefined);
    void call(saved.path).then((answer) => answer.ok || setError(answer.error));
  };
  return (
    <div className="result" role="status" data-testid="result">
      <p>
        <strong>{heading}</strong> <span data-testid="saved-name" translate="no">{saved.fileName}</span>
      </p>
      <p>{t('common.savedTo')}</p>
      <p className="mono" data-testid="saved-path" translate="no">
        {saved.path}
      </p>
      <p className="muted mono" translate="no">
        SHA-256 {saved.sha256}
      </p>
      <div className="actions">
        {open && (
          <button type="button" className="button secondary" onClick={() => viaShell(open)}>
            {t('common.open')}
          </button>
        )}
        {showInFolder ? (
          <button type="button" className="button secondary" onClick={() => viaShell(showInFolder)}>
            {t('common.openFolder')}
          </button>
        ) : (
          <button type="button" className="button secondary" onClick={() => void downloadSaved(saved.fileName).catch((reason: unknown) => setError(reason))}>
            {t('common.download', { name: saved.fileName })}
          </button>
        )}
        {verify && (
          <button type="button" className="button secondary" onClick={() => verify({ saved, ...(data ? { data } : {}) })}>
            {t('common.verifyThis')}
          </button>
        )}
      </div>
      <ErrorAlert error={error} />
    </div>
  );
}
