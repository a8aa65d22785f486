import { useEffect, useState, type FormEvent, type JSX } from 'react';
import type { StationState } from '../../../core/schemas/station-state.js';
import type { DeskIdentifyMethod, DeskIdentifyStarted } from '../../../core/schemas/desk-api.js';
import { VerificationCode } from '../parts/verification-code.js';
import type { IdentifiedPerson } from '../../../core/schemas/identity-api.js';
import { useI18n } from '../i18n/i18n.js';
import { ErrorAlert } from '../parts/error-alert.js';
import { stationApi } from '../station-api.js';
import { useAction } from '../parts/use-action.js';
import { identifyMethodName } from '../parts/identify-method-name.js';

/**
 * Trying an integration from the window: the station's identification methods (a card or token, and in sandbox
 * mode the simulators) run as they would for an integrator's server, and the identified person is shown.
 */
export function IdentifyScreen({ state }: { state: StationState }): JSX.Element {
  const { t } = useI18n();
  const [methods, setMethods] = useState<DeskIdentifyMethod[]>([]);
  const [chosen, setChosen] = useState<string>();
  const [loadError, setLoadError] = useState<unknown>();
  const { busy, result: person, error, run } = useAction<IdentifiedPerson>();
  const [started, setStarted] = useState<DeskIdentifyStarted>();
  useEffect(() => {
    stationApi.identifyMethods().then(setMethods, setLoadError);
  }, [state.station.mode]);
  const method = methods.find((candidate) => candidate.code === chosen) ?? methods[0];
  const discovery = `${state.station.baseUrl}/.well-known/openid-configuration`;

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (!method) return;
    const form = new FormData(event.currentTarget);
    const field = (name: string): string | undefined => String(form.get(name) ?? '').trim() || undefined;
    const [idcode, phone, country] = [field('idcode'), field('phone'), field('country')];
    await run(async () => {
      const begun = await stationApi.identifyStart({ method: method.code, ...(idcode ? { idcode } : {}), ...(phone ? { phone } : {}), ...(country ? { country } : {}) });
      setStarted(begun);
      try {
        return await stationApi.identifyComplete({ method: method.code, token: begun.token });
      } finally {
        setStarted(undefined);
      }
    });
  }

  return (
    <section className="panel" aria-labelledby="identify-heading">
      <h2 id="identify-heading">{t('identify.heading')}</h2>
      <p className="muted">{t('identify.intro')}</p>
      <form className="stack" aria-label={t('identify.heading')} onSubmit={(event) => void submit(event)}>
        <label className="field">
          {t('identify.method')}
          <select name="method" value={method?.code ?? ''} onChange={(event) => setChosen(event.currentTarget.value)}>
            {methods.map((candidate) => (
              <option key={candidate.code} value={candidate.code}>
                {identifyMethodName(candidate, t)}
              </option>
            ))}
          </select>
        </label>
        {method && <MethodInputs method={method} />}
        <div>
          <button type="submit" className="button primary" disabled={busy || !method}>
            {t('identify.submit')}
          </button>
        </div>
      </form>
      {busy && <p className="muted">{t('common.busy')}</p>}
      {started && <VerificationCode started={started} />}
      {person && <IdentifiedPersonCard person={person} />}
      <ErrorAlert error={error ?? loadError} />
      <p className="muted">
        {t('identify.discovery')}:{' '}
        <a href={discovery} target="_blank" rel="noreferrer" translate="no">
          {discovery}
        </a>
      </p>
    </section>
  );
}

/** The fields the chosen method asks for: a personal code (and country), a phone number. */
function MethodInputs({ method }: { method: DeskIdentifyMethod }): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      {method.inputs.includes('idcode') && (
        <>
          <label className="field">
            {t('identify.idcode')}
            <input name="idcode" required autoComplete="off" />
          </label>
          <label className="field">
            {t('identify.country')}
            <input name="country" maxLength={2} placeholder="EE" />
          </label>
        </>
      )}
      {method.inputs.includes('phone') && (
        <label className="field">
          {t('identify.phone')}
          <input name="phone" required type="tel" placeholder="+372…" />
        </label>
      )}
    </>
  );
}

function IdentifiedPersonCard({ person }: { person: IdentifiedPerson }): JSX.Element {
  const { t } = useI18n();
  return (
    <div className="result" role="status" data-testid="identified">
      <p>
        <strong>{t('identify.result', { name: `${person.firstname} ${person.lastname}` })}</strong>
      </p>
      <p className="mono" translate="no">
        {person.idcode} · {person.country} · {person.current_login_method}
      </p>
    </div>
  );
}
