import { useEffect, useState, type JSX } from 'react';
import type { StationState } from '../../../core/schemas/station-state.js';
import { useI18n, type Language, type Translate } from '../i18n/i18n.js';
import { LanguageOptions } from '../parts/language-options.js';
import { TokensSection } from './tokens-section.js';
import { ClientsSection } from './clients-section.js';
import { ModulesSection } from './modules-section.js';
import { TrustSection } from './trust-section.js';
import { OutputFolderChoice } from '../parts/output-folder-choice.js';

/** Station facts, language, start at login (desktop app only), cards and tokens, web clients, modules, TSA. */
export function SettingsScreen({ state }: { state: StationState }): JSX.Element {
  const { t } = useI18n();
  const s = state.station;
  return (
    <>
      <section className="panel" aria-labelledby="station-heading">
        <h2 id="station-heading">{t('settings.station')}</h2>
        <dl className="facts">
          <dt>{t('settings.mode')}</dt>
          <dd>{t(s.mode === 'sandbox' ? 'mode.sandbox' : 'mode.production')}</dd>
          <dt>{t('settings.address')}</dt>
          <dd translate="no">{s.baseUrl}</dd>
          <dt>{t('settings.outputDir')}</dt>
          <dd>
            <OutputFolderChoice folder={state.outputDir} />
          </dd>
          <dt>{t('settings.dataDir')}</dt>
          <dd className="mono" translate="no">
            {s.dataDir}
          </dd>
          <dt>{t('settings.keyStore')}</dt>
          <dd>{keyStoreName(s.keyStore, t)}</dd>
          <dt>{t('settings.version')}</dt>
          <dd translate="no">{s.version}</dd>
        </dl>
        <LanguageChoice />
        <StartAtLogin />
      </section>
      <TokensSection state={state} />
      <ClientsSection clients={state.clients} />
      {state.modules && <ModulesSection modules={state.modules} />}
      <TrustSection />
      <section className="panel" aria-labelledby="tsa-heading">
        <h2 id="tsa-heading">{t('tsa.heading')}</h2>
        <p>{t('tsa.body', { url: `${s.baseUrl}/api/timestamp/<client_id>` })}</p>
      </section>
    </>
  );
}

/** The station describes its secret store in English for its log; the kinds it has are named here in the user's words. */
function keyStoreName(description: string, t: Translate): string {
  const passphrase = /^the passphrase-protected key file (.+)$/.exec(description);
  if (passphrase) return t('settings.keyStore.passphrase', { path: passphrase[1]! });
  if (/Secret Service/.test(description)) return t('settings.keyStore.secretService');
  if (/macOS Keychain/.test(description)) return t('settings.keyStore.macos');
  if (/Windows Credential Manager/.test(description)) return t('settings.keyStore.windows');
  return description;
}

export function LanguageChoice(): JSX.Element {
  const { t, language, setLanguage } = useI18n();
  return (
    <label className="field inline">
      {t('app.language')}
      <select value={language} onChange={(event) => setLanguage(event.currentTarget.value as Language)}>
        <LanguageOptions />
      </select>
    </label>
  );
}

/** Only in the desktop app: a browser tab cannot start anything at login, so it shows nothing. */
function StartAtLogin(): JSX.Element | null {
  const { t } = useI18n();
  const shell = window.stationShell;
  const [enabled, setEnabled] = useState<boolean>();
  useEffect(() => {
    void shell?.getStartAtLogin().then((answer) => answer.ok && setEnabled(answer.value));
  }, [shell]);
  if (!shell || enabled === undefined) return null;
  return (
    <label className="check">
      <input
        type="checkbox"
        checked={enabled}
        onChange={(event) => {
          const next = event.currentTarget.checked;
          void shell.setStartAtLogin(next).then((answer) => answer.ok && setEnabled(answer.value));
        }}
      />{' '}
      {t('settings.startAtLogin')}
    </label>
  );
}
