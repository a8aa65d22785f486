import { useState, type JSX } from 'react';
import type { SignatureVerification } from '../../../core/schemas/verification-report.js';
import { useI18n } from '../i18n/i18n.js';
import { ErrorAlert } from '../parts/error-alert.js';
import { trustApi } from './trust-api.js';

/**
 * "Trust this issuer" under a verify result whose chain ends in no trusted issuer: shows the certificate's subject
 * and SHA-256 fingerprint and asks once more; the station adds it only if it still has that fingerprint.
 */
export function TrustIssuer({ signature }: { signature: SignatureVerification }): JSX.Element | null {
  const { t } = useI18n();
  const [step, setStep] = useState<'offer' | 'ask' | 'done'>('offer');
  const [error, setError] = useState<unknown>();
  const top = signature.chain.untrustedTop;
  if (!top) return null;
  if (step === 'done') return <p role="status">{t('trust.issuer.done')}</p>;
  if (step === 'offer') {
    return (
      <button type="button" className="button secondary" onClick={() => setStep('ask')}>
        {t('trust.issuer.offer')}
      </button>
    );
  }
  return (
    <div role="group" aria-label={t('trust.issuer.offer')} className="confirm">
      <p>{t('trust.issuer.ask')}</p>
      <dl className="facts">
        <dt>{t('trust.issuer.subject')}</dt>
        <dd translate="no">{top.subject}</dd>
        <dt>SHA-256</dt>
        <dd className="mono" translate="no">
          {top.sha256}
        </dd>
      </dl>
      <button
        type="button"
        className="button primary"
        onClick={() =>
          void trustApi.add({ certificate: top.certificate, fingerprint: top.sha256 }).then(
            () => setStep('done'),
            (reason: unknown) => setError(reason),
          )
        }
      >
        {t('trust.issuer.yes')}
      </button>{' '}
      <button type="button" className="button secondary" onClick={() => setStep('offer')}>
        {t('trust.issuer.no')}
      </button>
      <ErrorAlert error={error} />
    </div>
  );
}
