import { useState, type FormEvent, type JSX } from 'react';
import type { Pkcs11ModulesView } from '../../../core/schemas/pkcs11-modules.js';
import { useI18n } from '../i18n/i18n.js';
import { ErrorAlert } from '../parts/error-alert.js';
import { RemoveButton } from '../parts/remove-button.js';
import { stationApi } from '../station-api.js';

/** PKCS#11 middleware the station loads: known per OS, from config, and what the user added (here or with the CLI). */
export function ModulesSection({ modules }: { modules: Pkcs11ModulesView }): JSX.Element {
  const { t } = useI18n();
  const [error, setError] = useState<unknown>();

  async function add(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    try {
      await stationApi.addModule({ path: String(data.get('path') ?? '').trim(), kind: data.get('kind') === 'nss-database' ? 'nss-database' : 'module' });
      setError(undefined);
      form.reset();
    } catch (reason) {
      setError(reason);
    }
  }

  return (
    <section className="panel" aria-labelledby="modules-heading">
      <h2 id="modules-heading">{t('modules.heading')}</h2>
      {/* A module the user added is listed once, with the others they added (where it can be removed), under its loaded name. */}
      <ul className="list" aria-label={t('modules.loaded')}>
        {modules.loaded.filter((module) => !modules.user.some((added) => added.path === module.path)).map((module) => (
          <li key={module.path}>
            <strong>{module.name}</strong> <span className="muted mono">{module.path}</span>
          </li>
        ))}
      </ul>
      {modules.user.length > 0 && (
        <ul className="list" aria-label={t('modules.added')}>
          {modules.user.map((module) => (
            <li key={module.path}>
              {loadedName(modules, module.path) && <strong>{loadedName(modules, module.path)} </strong>}
              <span className="mono">{module.path}</span> <span className="muted">({t(module.kind === 'module' ? 'modules.kind.module' : 'modules.kind.nss')})</span>{' '}
              <RemoveButton name={module.path} onRemove={() => stationApi.removeModule(module.path).catch(setError)} />
            </li>
          ))}
        </ul>
      )}
      <form className="form" aria-label={t('modules.add')} onSubmit={(event) => void add(event)}>
        <label>
          {t('modules.path')} <input name="path" required placeholder="/usr/lib/vendor/libtoken-pkcs11.so" />
        </label>
        <label>
          {t('modules.kind')}
          <select name="kind" defaultValue="module">
            <option value="module">{t('modules.kind.module')}</option>
            <option value="nss-database">{t('modules.kind.nss')}</option>
          </select>
        </label>
        <button type="submit" className="button primary">
          {t('modules.add')}
        </button>
      </form>
      <ErrorAlert error={error} />
    </section>
  );
}

const loadedName = (modules: Pkcs11ModulesView, path: string): string | undefined => modules.loaded.find((module) => module.path === path)?.name;
