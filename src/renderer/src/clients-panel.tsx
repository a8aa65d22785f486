import { useState, type FormEvent, type JSX } from 'react';
import type { ClientRegistration } from '../../core/schemas/client-registration.js';
import { ErrorAlert } from './error-alert.js';
import { StationApiError } from './station-api-error.js';
import { stationApi } from './station-api.js';

const lines = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);

export function ClientsPanel({ clients, onChanged }: { clients: ClientRegistration[]; onChanged(): void }): JSX.Element {
  const [error, setError] = useState<string>();

  async function add(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string): string => String(form.get(name) ?? '');
    try {
      await stationApi.addClient({
        registration: {
          clientId: field('clientId'),
          redirectUris: lines(field('redirectUris')),
          allowedIps: lines(field('allowedIps')),
          allowedOrigins: lines(field('allowedOrigins')),
        },
      });
      setError(undefined);
      (event.target as HTMLFormElement).reset();
      onChanged();
    } catch (reason) {
      setError(reason instanceof StationApiError ? reason.message : String(reason));
    }
  }

  async function remove(clientId: string): Promise<void> {
    await stationApi.removeClient(clientId).catch((reason: unknown) => setError(String(reason)));
    onChanged();
  }

  return (
    <section className="panel" aria-labelledby="clients-heading">
      <h2 id="clients-heading">Clients</h2>
      {clients.length === 0 ? (
        <p className="muted">No clients registered yet.</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Client id</th>
              <th>Redirect URIs</th>
              <th>Allowed IPs</th>
              <th>Allowed origins</th>
              <th>Secret</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {clients.map((client) => (
              <tr key={client.clientId}>
                <td>{client.clientId}</td>
                <td>{client.redirectUris.join(', ') || '—'}</td>
                <td>{client.allowedIps.join(', ') || '—'}</td>
                <td>{client.allowedOrigins.join(', ') || '—'}</td>
                <td>{client.hasSecret ? 'set' : 'none'}</td>
                <td>
                  <button type="button" onClick={() => void remove(client.clientId)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="form" onSubmit={(event) => void add(event)} aria-label="Add client">
        <label>
          Client id <input name="clientId" required />
        </label>
        <label>
          Redirect URIs <input name="redirectUris" placeholder="https://app.example/callback" />
        </label>
        <label>
          Allowed IPs <input name="allowedIps" placeholder="127.0.0.1, 10.0.0.0/8" />
        </label>
        <label>
          Allowed origins <input name="allowedOrigins" placeholder="https://app.example" />
        </label>
        <button type="submit">Add client</button>
        <p className="muted">Set the API secret with the CLI: signing-station clients update CLIENT_ID --secret-stdin</p>
      </form>
      <ErrorAlert message={error} />
    </section>
  );
}
