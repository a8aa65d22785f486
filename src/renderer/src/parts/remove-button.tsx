import { useState, type JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';

/** A destructive button that asks once more, naming what goes, before it acts. */
export function RemoveButton({ name, onRemove }: { name: string; onRemove(): Promise<void> }): JSX.Element {
  const { t } = useI18n();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button danger-outline" onClick={() => setAsking(true)}>
        {t('common.remove')}
      </button>
    );
  }
  return (
    <span role="group" aria-label={t('common.confirmRemove', { name })} className="confirm">
      <span>{t('common.confirmRemove', { name })}</span>{' '}
      <button
        type="button"
        className="button danger"
        disabled={busy}
        autoFocus
        onClick={() => {
          setBusy(true);
          void onRemove().finally(() => {
            setBusy(false);
            setAsking(false);
          });
        }}
      >
        {t('common.yesRemove')}
      </button>{' '}
      <button type="button" className="button secondary" onClick={() => setAsking(false)}>
        {t('common.keep')}
      </button>
    </span>
  );
}
