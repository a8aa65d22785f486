import type { JSX } from 'react';
import type { DeskIdentifyStarted } from '../../../core/schemas/desk-api.js';
import { useI18n } from '../i18n/i18n.js';
import { useCountdown } from './use-countdown.js';

/**
 * While Smart-ID or Mobile-ID waits for the person: the verification code their phone shows, to compare before
 * they confirm there, and the time left until the identification lapses.
 */
export function VerificationCode({ started }: { started: DeskIdentifyStarted }): JSX.Element {
  const { t } = useI18n();
  const seconds = useCountdown(Date.parse(started.expiresAt));
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <div className="result" role="status" data-testid="verification-code">
      {started.challenge && (
        <p>
          {t('identify.code')} <strong className="code">{started.challenge}</strong>
        </p>
      )}
      {started.challenge && <p>{t('identify.code.compare')}</p>}
      <p className="muted">{t('identify.expires', { time })}</p>
    </div>
  );
}
