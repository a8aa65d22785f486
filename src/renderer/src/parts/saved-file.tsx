import { useState, type JSX } from 'react';
import type { DeskSavedFile } from '../../../core/schemas/desk-api.js';
import { useI18n } from '../i18n/i18n.js';
import { downloadSaved } from '../signing/download-saved.js';
import { ErrorAlert } from './error-alert.js';

/**
 * Where a result went, and what to do with it: in the desktop app a button that shows it in the file manager; in a
 * browser tab, which cannot reach the folder, a download of the file itself.
 */
export function SavedFile({ saved, heading }: { saved: DeskSavedFile; heading: string }): JSX.Element {
  const { t } = useI18n();
  const shell = window.stationShell;
  const [error, setError] = useState<unknown>();
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
      {shell?.showItemInFolder && (
        <button type="button" className="button secondary" onClick={() => void shell.showItemInFolder?.(saved.path)}>
          {t('common.openFolder')}
        </button>
      )}
      {!shell?.showItemInFolder && (
        <button type="button" className="button secondary" onClick={() => void downloadSaved(saved.fileName).catch((reason: unknown) => setError(reason))}>
          {t('common.download', { name: saved.fileName })}
        </button>
      )}
      <ErrorAlert error={error} />
    </div>
  );
}
