import { useState, type JSX } from 'react';
import type { TokenDescription } from '../../../core/schemas/token-description.js';
import { useI18n } from '../i18n/i18n.js';
import { stationApi } from '../station-api.js';
import { useCountdown } from './use-countdown.js';
import { ErrorAlert } from './error-alert.js';

/**
 * Above every screen: each card or token that stays logged in after a signature (the next one asks no PIN), with
 * the time left and "lock now", so reusing the PIN is never invisible.
 */
export function UnlockedTokens({ tokens }: { tokens: TokenDescription[] }): JSX.Element | null {
  const unlocked = tokens.filter((token) => token.unlockedUntil !== undefined);
  if (unlocked.length === 0) return null;
  return (
    <ul className="list unlocked" data-testid="unlocked-tokens">
      {unlocked.map((token) => (
        <UnlockedToken key={`${token.id}/${token.unlockedUntil}`} token={token} until={Date.parse(token.unlockedUntil!)} />
      ))}
    </ul>
  );
}

function UnlockedToken({ token, until }: { token: TokenDescription; until: number }): JSX.Element | null {
  const { t } = useI18n();
  const seconds = useCountdown(until);
  const [error, setError] = useState<unknown>();
  if (seconds === 0) return null;
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <li className="warning">
      <span role="status">{t('tokens.unlocked', { token: token.label, time })}</span>{' '}
      <button type="button" className="button secondary small" onClick={() => void stationApi.lockToken(token.id).catch((reason: unknown) => setError(reason))}>
        {t('tokens.lockNow')}
      </button>
      <ErrorAlert error={error} />
    </li>
  );
}
