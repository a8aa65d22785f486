import { useCallback, useEffect, useState, type JSX } from 'react';
import type { PivotStep, TrustRefreshResult, TrustSources } from '../../../core/schemas/trust-api.js';
import { useI18n, type Translate } from '../i18n/i18n.js';
import { ErrorAlert } from '../parts/error-alert.js';
import { FilePicker } from '../parts/file-picker.js';
import { RemoveButton } from '../parts/remove-button.js';
import { trustApi } from '../trust/trust-api.js';

/** A certificate file as the API takes it: PEM as text, anything else (DER) as base64. */
async function certificateText(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const text = new TextDecoder().decode(bytes);
  if (text.includes('-----BEGIN')) return text;
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Why a list of lists was refused while following its pivots, in the user's language; else the station's words. */
function refusalReason(t: Translate, reason: string, pivot: PivotStep | undefined): string {
  return pivot ? t(`trust.pivot.${pivot.step}`, { position: pivot.position, count: pivot.count, url: pivot.url ?? '' }) : reason;
}

/** Settings' trust: EU trusted lists (on/off, refresh, each list's dates), certificates the person added, this station's TSA. */
export function TrustSection(): JSX.Element {
  const { t } = useI18n();
  const [sources, setSources] = useState<TrustSources>();
  const [refreshed, setRefreshed] = useState<TrustRefreshResult>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  const run = useCallback(async (work: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await work();
      setError(undefined);
      setSources(await trustApi.sources());
    } catch (reason) {
      setError(reason);
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    void run(() => Promise.resolve());
  }, [run]);

  return (
    <section className="panel" aria-labelledby="trust-heading">
      <h2 id="trust-heading">{t('trust.heading')}</h2>
      <p className="muted">{t('trust.intro')}</p>
      {sources && (
        <>
          <label className="check">
            <input type="checkbox" checked={sources.euLists.enabled} disabled={busy} onChange={(event) => void run(() => trustApi.setEuLists(event.currentTarget.checked))} /> {t('trust.euLists')}
          </label>{' '}
          <button type="button" className="button secondary" disabled={busy} onClick={() => void run(async () => setRefreshed(await trustApi.refresh()))}>
            {busy ? t('trust.refreshing') : t('trust.refresh')}
          </button>
          {sources.lists.length === 0 ? (
            <p className="muted">{t('trust.noLists')}</p>
          ) : (
            <table className="table" aria-label={t('trust.lists')}>
              <thead>
                <tr>
                  <th>{t('trust.col.territory')}</th>
                  <th>{t('trust.col.sequence')}</th>
                  <th>{t('trust.col.services')}</th>
                  <th>{t('trust.col.fetched')}</th>
                  <th>{t('trust.col.nextUpdate')}</th>
                </tr>
              </thead>
              <tbody>
                {sources.lists.map((list) => (
                  <tr key={`${list.lotl}-${list.kind}-${list.territory}`}>
                    <td>
                      {list.kind === 'lotl' ? t('trust.listOfLists', { territory: list.territory }) : list.territory}
                      {list.refused && <div className="muted">{t('trust.refused', { reason: refusalReason(t, list.refused.reason, list.refused.pivot) })}</div>}
                    </td>
                    <td translate="no">{list.sequenceNumber}</td>
                    <td translate="no">{list.services}</td>
                    <td translate="no">{new Date(list.fetchedAt).toLocaleString()}</td>
                    <td translate="no">{list.nextUpdate ? new Date(list.nextUpdate).toLocaleDateString() : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {refreshed && (
            <ul aria-label={t('trust.refresh')}>
              {refreshed.lists.map((list, index) => (
                <li key={index}>
                  {t(`trust.outcome.${list.outcome}`, { territory: list.territory })} {list.outcome === 'refused' && refusalReason(t, list.message, list.pivot)}
                </li>
              ))}
            </ul>
          )}
          <FilePicker multiple label={t('trust.importLists')} onFiles={(files) => void run(async () => setRefreshed(await trustApi.importLists({ lists: await Promise.all(files.map(async (file) => ({ name: file.name, xml: await file.text() }))) })))} />
          <h3>{t('trust.added')}</h3>
          {sources.added.length === 0 ? (
            <p className="muted">{t('trust.noneAdded')}</p>
          ) : (
            <ul>
              {sources.added.map((certificate) => (
                <li key={certificate.fingerprint}>
                  <span translate="no">{certificate.subject}</span>{' '}
                  <span className="mono" translate="no">
                    SHA-256 {certificate.fingerprint}
                  </span> <RemoveButton name={certificate.subject} onRemove={() => run(() => trustApi.remove(certificate.fingerprint))} />
                </li>
              ))}
            </ul>
          )}
          <FilePicker multiple={false} label={t('trust.addFile')} onFiles={([file]) => file && void run(async () => trustApi.add({ certificate: await certificateText(file) }))} />
          <h3>{t('trust.stationTsa')}</h3>
          <p translate="no">{sources.stationTsa ? <>{sources.stationTsa.subject} <span className="mono">SHA-256 {sources.stationTsa.fingerprint}</span></> : '—'}</p>
        </>
      )}
      <ErrorAlert error={error} />
    </section>
  );
}
