import type { JSX } from 'react';
import type { StationState } from '../../../core/schemas/station-state.js';
import { useI18n } from '../i18n/i18n.js';

/** Where an integrator starts trying the station's identification: its OpenID provider and the methods it offers. */
export function IdentifyScreen({ state }: { state: StationState }): JSX.Element {
  const { t } = useI18n();
  const discovery = `${state.station.baseUrl}/.well-known/openid-configuration`;
  const methods = ['local-token-login', 'ee-web-eid-login', ...(state.station.mode === 'sandbox' ? ['smartid', 'mid-login', 'at-eudi-wallet-login'] : [])];
  return (
    <section className="panel" aria-labelledby="identify-heading">
      <h2 id="identify-heading">{t('identify.heading')}</h2>
      <p className="muted">{t('identify.intro')}</p>
      <dl className="facts">
        <dt>{t('identify.discovery')}</dt>
        <dd>
          <a href={discovery} target="_blank" rel="noreferrer">
            {discovery}
          </a>
        </dd>
        <dt>{t('identify.methods')}</dt>
        <dd className="mono">{methods.join(', ')}</dd>
      </dl>
    </section>
  );
}
