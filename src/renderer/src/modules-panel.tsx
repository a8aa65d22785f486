import { useCallback, useEffect, useState, type FormEvent, type JSX } from 'react';
import type { Pkcs11ModulesView } from '../../core/schemas/pkcs11-modules.js';
import { ErrorAlert } from './error-alert.js';
import { StationApiError } from './station-api-error.js';
import { stationApi } from './station-api.js';

/** PKCS#11 middleware the station loads: known per OS, from config, and what the user added here. */
export function ModulesPanel(): JSX.Element {
  const [view, setView] = useState<Pkcs11ModulesView>();
  const [error, setError] = useState<string>();
  const refresh = useCallback(() => {
    stationApi
      .modules()
      .then(setView)
      .catch((reason: unknown) => setError(String(reason)));
  }, []);
  useEffect(refresh, [refresh]);

  async function add(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const path = String(new FormData(form).get('path') ?? '').trim();
    const kind = String(new FormData(form).get('kind') ?? 'module') === 'nss-database' ? 'nss-database' : 'module';
    try {
      await stationApi.addModule({ path, kind });
      setError(undefined);
      form.reset();
    } catch (reason) {
      setError(reason instanceof StationApiError ? reason.message : String(reason));
    }
    refresh();
  }

  async function remove(path: string): Promise<void> {
    await stationApi.removeModule(path).catch((reason: unknown) => setError(String(reason)));
    refresh();
  }

  return (
    <section className="panel" aria-labelledby="modules-heading">
      <h2 id="modules-heading">PKCS#11 modules</h2>
      {view && (
        <ul className="list" aria-label="Loaded modules">
          {view.loaded.map((module) => (
            <li key={module.path}>
              <strong>{module.name}</strong> <span className="muted">{module.path} · {module.origin}</span>
            </li>
          ))}
        </ul>
      )}
      {view && view.user.length > 0 && (
        <ul className="list" aria-label="Added modules">
          {view.user.map((module) => (
            <li key={module.path}>
              {module.path} <span className="muted">({module.kind})</span>{' '}
              <button type="button" onClick={() => void remove(module.path)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="form" aria-label="Add module" onSubmit={(event) => void add(event)}>
        <label>
          Module or NSS database path <input name="path" required placeholder="/usr/lib/vendor/libtoken-pkcs11.so" />
        </label>
        <label>
          Kind
          <select name="kind" defaultValue="module">
            <option value="module">PKCS#11 module</option>
            <option value="nss-database">NSS database directory</option>
          </select>
        </label>
        <button type="submit">Add module</button>
      </form>
      <ErrorAlert message={error} />
    </section>
  );
}
