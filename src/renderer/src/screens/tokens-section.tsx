import type { JSX } from 'react';
import type { StationState } from '../../../core/schemas/station-state.js';
import type { TokenDescription } from '../../../core/schemas/token-description.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { useI18n, type Translate } from '../i18n/i18n.js';
import { humaneName } from '../parts/humane-name.js';
import { problemKey } from '../problems/problem-key.js';
import { UnlockTimeChoice } from '../parts/unlock-time-choice.js';

/** Readers, cards, tokens and stores as the station sees them now, with the ids the command line takes. */
export function TokensSection({ state }: { state: StationState }): JSX.Element {
  const { t, date } = useI18n();
  return (
    <section className="panel" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">{t('tokens.heading')}</h2>
      <UnlockTimeChoice />
      {state.readers.length > 0 && (
        <ul className="list" aria-label={t('tokens.readers')}>
          {state.readers.map((reader) => (
            <li key={reader.name}>
              <strong translate="no">{reader.name}</strong> — {reader.cardPresent ? t('tokens.card') : t('tokens.noCard')}
              {reader.driver && (
                <span className="muted" translate="no">
                  {' · '}
                  {reader.driver}
                </span>
              )}
              {reader.problem && <span className="warning"> · {reader.problem}</span>}
            </li>
          ))}
        </ul>
      )}
      {state.tokens.length === 0 ? (
        <p className="muted" data-testid="no-tokens">
          {t('tokens.none')}
        </p>
      ) : (
        <ul className="cards" aria-label={t('tokens.heading')}>
          {state.tokens.map((token) => (
            <li key={token.id} className="card">
              <p>
                <strong translate="no">{token.label}</strong> <PinWarning token={token} t={t} />
              </p>
              <p className="muted">
                {t('tokens.id')}: <code translate="no">{token.id}</code>
              </p>
              <ul className="list">
                {token.certificates.map((certificate) => (
                  <li key={certificate.id}>
                    {humaneName(certificate.subject, t).map((part, index) => (
                      <span key={`${part.label}=${part.value}`}>
                        {index > 0 && ' · '}
                        {part.label}: <span translate="no">{part.value}</span>
                      </span>
                    ))}
                    <br />
                    <span className="muted">
                      {t(`tokens.usage.${certificate.usage}` as MessageKey)} · {t('tokens.validUntil', { date: date(certificate.notAfter) })} · {t('tokens.certificateId')}: <code translate="no">{certificate.id}</code>
                      {certificate.pinEverySignature && <span data-testid="pin-every-signature"> · {t('tokens.pinEverySignature')}</span>}
                    </span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      {state.problems.map((problem) => (
        <SourceProblemLine key={`${problem.source}:${problem.message}`} problem={problem} t={t} />
      ))}
    </section>
  );
}

/**
 * A source that cannot be used: the plain words for its error code in the reader's language, then the station's
 * own words (which name the module and the exact packages to install); a problem without a known code in those alone.
 */
function SourceProblemLine({ problem, t }: { problem: StationState['problems'][number]; t: Translate }): JSX.Element {
  const key = problemKey(problem.code);
  return (
    <p className="warning" data-testid="source-problem">
      {problem.source}: {key === 'problem.internal' ? problem.message : <>{t(key)} <span className="muted">{problem.message}</span></>}
    </p>
  );
}

function PinWarning({ token, t }: { token: TokenDescription; t: Translate }): JSX.Element | null {
  if (token.pin.locked) return <span className="warning">{t('tokens.pinLocked')}</span>;
  if (token.pin.finalTry) return <span className="warning">{t('tokens.pinFinal')}</span>;
  if (token.pin.countLow) return <span className="warning">{t('tokens.pinLow')}</span>;
  return null;
}
