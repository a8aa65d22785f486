import { useId, useState, type JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { stationApi } from '../station-api.js';
import { ErrorAlert } from './error-alert.js';

/**
 * Where results are saved, and in the desktop app "Change…": the OS's folder dialog (main's), then the station
 * checks and keeps the folder; the pushed state shows the new one. A browser tab cannot browse the user's folders
 * (its results are downloads), so it only shows the folder.
 */
export function OutputFolderChoice({ folder }: { folder: string }): JSX.Element {
  const { t } = useI18n();
  const id = useId();
  const choose = window.stationShell?.chooseOutputFolder;
  const [error, setError] = useState<unknown>();
  async function change(ask: NonNullable<typeof choose>): Promise<void> {
    setError(undefined);
    const answer = await ask();
    if (!answer.ok) return setError(answer.error);
    if (answer.value !== null) await stationApi.setOutputFolder(answer.value).catch((reason: unknown) => setError(reason));
  }
  return (
    <>
      <span id={id} className="mono" translate="no" data-testid="output-folder">
        {folder}
      </span>{' '}
      {choose && (
        <button type="button" className="button secondary" aria-describedby={id} onClick={() => void change(choose)}>
          {t('settings.outputDir.change')}
        </button>
      )}
      <ErrorAlert error={error} />
    </>
  );
}
