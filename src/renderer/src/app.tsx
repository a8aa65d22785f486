import { useCallback, useEffect, useState, type JSX } from 'react';
import type { StationState } from '../../core/schemas/station-state.js';
import type { MessageKey } from './i18n/messages-en.js';
import { I18nProvider, useI18n } from './i18n/i18n.js';
import { useStationState } from './state/use-station-state.js';
import { PromptsPanel } from './parts/prompts-panel.js';
import { UnlockedTokens } from './parts/unlocked-tokens.js';
import { SignScreen } from './screens/sign-screen.js';
import { TimestampScreen } from './screens/timestamp-screen.js';
import { VerifyScreen } from './screens/verify-screen.js';
import { IdentifyScreen } from './screens/identify-screen.js';
import { SettingsScreen, LanguageChoice } from './screens/settings-screen.js';
import { ActivityScreen } from './screens/activity-screen.js';
import { LinkProblemScreen } from './screens/link-problem-screen.js';
import { VerifySavedContext, type VerifySavedRequest } from './verify/verify-saved-context.js';

const SCREENS = ['sign', 'timestamp', 'verify', 'identify', 'settings', 'activity'] as const;
type Screen = (typeof SCREENS)[number];

export function App(): JSX.Element {
  return (
    <I18nProvider>
      <Station />
    </I18nProvider>
  );
}

function Station(): JSX.Element {
  const { t } = useI18n();
  const view = useStationState();
  const [screen, setScreen] = useState<Screen>('sign');
  const [opened, setOpened] = useState<File[]>();
  // Counts the signings that ended: the prompts' "Answered" line is about them, and goes when one ends.
  const [settled, setSettled] = useState(0);
  // A result's "verify this file": the Verify screen opens with it. A new object each time, so asking again re-verifies.
  const [verifying, setVerifying] = useState<{ request: VerifySavedRequest }>();
  const verifySaved = useCallback((request: VerifySavedRequest) => {
    setVerifying({ request });
    setScreen('verify');
  }, []);
  const show = (name: Screen): void => {
    setVerifying(undefined);
    setScreen(name);
  };
  // Documents opened with the desktop app (file association, deep link) land on the Sign screen.
  useEffect(
    () =>
      window.stationShell?.onOpenFiles?.((files) => {
        setOpened(files.map((file) => new File([new Uint8Array(file.bytes)], file.name)));
        setScreen('sign');
      }),
    [],
  );
  const state = view.state;
  return (
    <div className="page">
      <header className="header">
        <h1>{t('app.title')}</h1>
        {state && (
          <span className={`mode mode-${state.station.mode}`} data-testid="mode">
            {t(state.station.mode === 'sandbox' ? 'mode.sandbox' : 'mode.production')}
          </span>
        )}
        <span className="spacer" />
        <LanguageChoice />
      </header>
      {state && (
        <nav aria-label={t('nav.label')} className="nav">
          {SCREENS.map((name) => (
            <button key={name} type="button" className="nav-item" aria-current={screen === name ? 'page' : undefined} onClick={() => show(name)}>
              {t(`nav.${name}` as MessageKey)}
            </button>
          ))}
        </nav>
      )}
      {view.reconnecting && (
        <p className="warning" role="status">
          {t('app.reconnecting')}
        </p>
      )}
      <main>
        {view.linkProblem ? (
          <LinkProblemScreen kind={view.linkProblem} />
        ) : state ? (
          <VerifySavedContext.Provider value={verifySaved}>
            <PromptsPanel prompts={state.prompts} settled={settled} />
            <UnlockedTokens tokens={state.tokens} />
            {/*
              The Sign screen stays mounted while another is shown: its files, placement and reason wait for the user,
              and a signing under way goes on (its prompt above every screen), rather than ending with the screen.
            */}
            <div hidden={screen !== 'sign'}>
              <SignScreen state={state} opened={opened} onSettled={() => setSettled((count) => count + 1)} />
            </div>
            {screen !== 'sign' && <ScreenView screen={screen} state={state} verifying={verifying} />}
          </VerifySavedContext.Provider>
        ) : (
          <p>{t('app.loading')}</p>
        )}
      </main>
    </div>
  );
}

function ScreenView({ screen, state, verifying }: { screen: Exclude<Screen, 'sign'>; state: StationState; verifying: { request: VerifySavedRequest } | undefined }): JSX.Element {
  switch (screen) {
    case 'timestamp':
      return <TimestampScreen />;
    case 'verify':
      return <VerifyScreen saved={verifying} />;
    case 'identify':
      return <IdentifyScreen state={state} />;
    case 'settings':
      return <SettingsScreen state={state} />;
    case 'activity':
      return <ActivityScreen entries={state.audit} />;
  }
}
