import type { JSX } from 'react';
import { useStationView } from './use-overview.js';
import { ModeBanner } from './mode-banner.js';
import { PromptsPanel } from './prompts-panel.js';
import { TokensPanel } from './tokens-panel.js';
import { ClientsPanel } from './clients-panel.js';
import { AuditPanel } from './audit-panel.js';
import { VerifyPanel } from './verify-panel.js';
import { ErrorAlert } from './error-alert.js';
import { ModulesPanel } from './modules-panel.js';
import { StartAtLogin } from './start-at-login.js';

export function App(): JSX.Element {
  const view = useStationView();
  const { overview } = view;
  return (
    <div className="page">
      <header className="header">
        <h1>Signing Station</h1>
        {overview && <ModeBanner mode={overview.station.mode} />}
      </header>
      <ErrorAlert message={view.error} />
      <PromptsPanel prompts={view.prompts} onAnswered={view.refresh} />
      {overview ? (
        <>
          <TokensPanel tokens={overview.tokens} readers={overview.readers} problems={overview.problems} />
          <ModulesPanel />
          <ClientsPanel clients={overview.clients} onChanged={view.refresh} />
          <AuditPanel entries={view.audit} />
          <VerifyPanel />
          <section className="panel" aria-labelledby="station-heading">
            <h2 id="station-heading">Station</h2>
            <dl className="facts">
              <dt>Address</dt>
              <dd>{overview.station.baseUrl}</dd>
              <dt>Data directory</dt>
              <dd>{overview.station.dataDir}</dd>
              <dt>Secrets protected by</dt>
              <dd>{overview.station.keyStore}</dd>
              <dt>Version</dt>
              <dd>{overview.station.version}</dd>
            </dl>
            <StartAtLogin />
          </section>
        </>
      ) : (
        !view.error && <p>Loading…</p>
      )}
    </div>
  );
}
