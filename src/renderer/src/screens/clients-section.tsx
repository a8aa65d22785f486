import { useState, type FormEvent, type JSX } from 'react';
import type { ClientRegistration } from '../../../core/schemas/client-registration.js';
import { useI18n } from '../i18n/i18n.js';
import { ErrorAlert } from '../parts/error-alert.js';
import { RemoveButton } from '../parts/remove-button.js';
import { stationApi } from '../station-api.js';

const lines = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);

/** Web clients: who may drive the station from which origins, and reach its TSA from which addresses. */
export function ClientsSection({ clients }: { clients: ClientRegistration[] }): JSX.Element {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>();

  async function add(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const field = (name: string): string => String(new FormData(form).get(name) ?? '');
    try {
      await stationApi.addClient({
        registration: { clientId: field('clientId'), redirectUris: lines(field('redirectUris')), allowedIps: lines(field('allowedIps')), allowedOrigins: lines(field('allowedOrigins')) },
      });
      setError(undefined);
      form.reset();
    } catch (reason) {
      setError(reason);
    }
  }

  return (
    <section className="panel" aria-labelledby="clients-heading">
      <h2 id="clients-heading">{t('clients.heading')}</h2>
      {clients.length === 0 ? (
        <p className="muted">{t('clients.none')}</p>
      ) : (
        <ClientsTable clients={clients} onError={setError} />
      )}
      <form className="form" onSubmit={(event) => void add(event)} aria-label={t('clients.add')}>
        <label>
          {t('clients.id')} <input name="clientId" required />
        </label>
        <label>
          {t('clients.allowedOrigins')} <input name="allowedOrigins" placeholder="https://app.example" />
        </label>
        <label>
          {t('clients.allowedIps')} <input name="allowedIps" placeholder="127.0.0.1, 10.0.0.0/8" />
        </label>
        <label>
          {t('clients.redirectUris')} <input name="redirectUris" placeholder="https://app.example/callback" />
        </label>
        <button type="submit" className="button primary">
          {t('clients.add')}
        </button>
      </form>
      <p className="muted">{t('clients.secretHint')}</p>
      <ErrorAlert error={error} />
    </section>
  );
}

function ClientsTable({ clients, onError }: { clients: ClientRegistration[]; onError(reason: unknown): void }): JSX.Element {
  const { t } = useI18n();
  return (
    <table className="table" aria-label={t('clients.heading')}>
      <thead>
        <tr>
          <th>{t('clients.id')}</th>
          <th>{t('clients.allowedOrigins')}</th>
          <th>{t('clients.allowedIps')}</th>
          <th>{t('clients.redirectUris')}</th>
          <th>{t('clients.secret')}</th>
          <td />
        </tr>
      </thead>
      <tbody>
        {clients.map((client) => (
          <tr key={client.clientId}>
            <td>{client.clientId}</td>
            <td>{client.allowedOrigins.join(', ') || t('common.none')}</td>
            <td>{client.allowedIps.join(', ') || t('common.none')}</td>
            <td>{client.redirectUris.join(', ') || t('common.none')}</td>
            <td>{client.hasSecret ? t('clients.secretSet') : t('clients.secretNone')}</td>
            <td>
              <RemoveButton name={client.clientId} onRemove={() => stationApi.removeClient(client.clientId).catch(onError)} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
