import { useEffect, useState, type JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { stationApi } from '../station-api.js';
import { ErrorAlert } from './error-alert.js';

const CHOICES = [0, 30, 60, 300] as const;

/** How long a card or token stays unlocked after a signature (0: the PIN every time), kept by the station. */
export function UnlockTimeChoice(): JSX.Element {
  const { t } = useI18n();
  const [seconds, setSeconds] = useState<number>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    stationApi.unlockTime().then(
      (answer) => setSeconds(answer.seconds),
      (reason: unknown) => setError(reason),
    );
  }, []);
  const choose = (value: number): void => {
    setSeconds(value);
    stationApi.setUnlockTime(value).then(
      () => setError(undefined),
      (reason: unknown) => setError(reason),
    );
  };
  const shown = seconds === undefined || (CHOICES as readonly number[]).includes(seconds) ? CHOICES : [...CHOICES, seconds];
  return (
    <>
      <label className="field inline">
        {t('tokens.unlockTime')}
        <select value={seconds ?? ''} disabled={seconds === undefined} onChange={(event) => choose(Number(event.currentTarget.value))}>
          {shown.map((value) => (
            <option key={value} value={value}>
              {value === 0 ? t('tokens.unlockTime.never') : t('tokens.unlockTime.seconds', { n: value })}
            </option>
          ))}
        </select>
      </label>
      <p className="muted">{t('tokens.unlockTime.help')}</p>
      <ErrorAlert error={error} />
    </>
  );
}
