import type { JSX } from 'react';
import { DESK_CLIENT_ID } from '../../../core/constants.js';
import type { AuditEntry } from '../../../core/schemas/audit-entry.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { useI18n } from '../i18n/i18n.js';
import { commonName } from '../parts/humane-name.js';
import { methodName } from '../parts/method-name.js';

/** The signature log in plain words: when, what happened, how, for whom, who signed which document. */
export function ActivityScreen({ entries }: { entries: AuditEntry[] }): JSX.Element {
  const { t, dateTime } = useI18n();
  return (
    <section className="panel" aria-labelledby="audit-heading">
      <h2 id="audit-heading">{t('activity.heading')}</h2>
      {entries.length === 0 ? (
        <p className="muted">{t('activity.none')}</p>
      ) : (
        <table className="table" aria-label={t('activity.heading')}>
          <thead>
            <tr>
              <th>{t('activity.time')}</th>
              <th>{t('activity.outcome')}</th>
              <th>{t('activity.method')}</th>
              <th>{t('activity.startedBy')}</th>
              <th>{t('activity.client')}</th>
              <th>{t('activity.signer')}</th>
              <th>{t('activity.document')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td>
                  <time dateTime={entry.time}>{dateTime(entry.time)}</time>
                </td>
                <td className={`outcome-${entry.outcome}`}>{t(`activity.outcome.${entry.outcome}` as MessageKey)}</td>
                <td title={entry.method}>{methodName(entry.method, t)}</td>
                <td title={entry.requester ?? undefined}>{entry.source === 'web-page' && entry.requester ? <span translate="no">{entry.requester}</span> : t(`activity.source.${entry.source}` as MessageKey)}</td>
                <td>{entry.clientId === DESK_CLIENT_ID ? t('activity.thisWindow') : entry.clientId ? <span translate="no">{entry.clientId}</span> : t('common.none')}</td>
                <td title={entry.signer ?? undefined} translate="no">{entry.signer ? commonName(entry.signer) : t('common.none')}</td>
                <td translate="no" title={entry.files.map((file) => `${file.name} SHA-256 ${file.sha256}`).join('\n') || `SHA-256 ${entry.documentDigest}`}>
                  {entry.files.length > 0 ? entry.files.map((file) => file.name).join(', ') : entry.documentDigest.slice(0, 16)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
