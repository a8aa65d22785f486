import type { JSX } from 'react';
import type { DeskSavedFile } from '../../../core/schemas/desk-api.js';
import { useI18n } from '../i18n/i18n.js';

/** Where a result went, and (in the desktop app) a button that shows it in the file manager. */
export function SavedFile({ saved, heading }: { saved: DeskSavedFile; heading: string }): JSX.Element {
  const { t } = useI18n();
  const shell = window.stationShell;
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
    </div>
  );
}
