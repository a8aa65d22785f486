import { useEffect, useRef, useState, type FormEvent, type JSX } from 'react';
import type { PendingPrompt, PromptAnswer } from '../../../core/schemas/admin-api.js';
import type { ConsentDocument, SignatureConsentRequest } from '../../../core/schemas/prompts.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { useI18n, type Translate } from '../i18n/i18n.js';
import { stationApi } from '../station-api.js';
import { ErrorAlert } from './error-alert.js';
import { commonName, humaneName } from './humane-name.js';
import { useCountdown } from './use-countdown.js';

type Answered = 'accepted' | 'declined';

/**
 * How long the line saying what was answered stays: long enough to read (a screen reader announces it as it
 * appears); left for good, it would still speak of an old answer while the window goes on to other things.
 */
const ANSWER_SHOWN_MS = 8_000;

/**
 * The station's own trusted prompts, above every screen: consent names the real requester, the document and the
 * signer; the PIN is typed only here. Each counts down to the moment the station declines it by itself, and says
 * what was answered afterwards, until the window's signing ends (`settled` changes).
 */
export function PromptsPanel({ prompts, settled }: { prompts: PendingPrompt[]; settled?: number }): JSX.Element | null {
  const { t } = useI18n();
  // Wrapped in a fresh object per answer, so that a second answer alike restarts the timer.
  const [answered, setAnswered] = useState<{ answer: Answered }>();
  // Once the signing the answers were for has ended, its result (or error) speaks instead.
  useEffect(() => setAnswered(undefined), [settled]);
  useEffect(() => {
    if (!answered) return;
    const timer = setTimeout(() => setAnswered(undefined), ANSWER_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [answered]);
  return (
    <>
      {prompts.length > 0 && (
        <section className="panel prompts" aria-labelledby="prompts-heading">
          <h2 id="prompts-heading">{t('prompt.heading')}</h2>
          {prompts.map((prompt) => (
            <Prompt key={prompt.id} prompt={prompt} onAnswered={(answer) => setAnswered({ answer })} />
          ))}
        </section>
      )}
      <p className="status" role="status" aria-live="polite">
        {prompts.length === 0 && answered ? t(answered.answer === 'accepted' ? 'prompt.answered.accepted' : 'prompt.answered.declined') : ''}
      </p>
    </>
  );
}

function Prompt({ prompt, onAnswered }: { prompt: PendingPrompt; onAnswered(answer: Answered): void }): JSX.Element {
  const { t } = useI18n();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const answer = (value: PromptAnswer): void => {
    setBusy(true);
    const accepted = (value.kind === 'consent' && value.accept) || value.kind === 'pin' || value.kind === 'certificate';
    stationApi.answerPrompt(prompt.id, value).then(
      () => onAnswered(accepted ? 'accepted' : 'declined'),
      (reason: unknown) => {
        setBusy(false);
        setError(reason);
      },
    );
  };
  const requester = requesterName(prompt.request, t);
  // A prompt that appears takes the keyboard focus, so a keyboard user answers it next (the PIN field focuses itself).
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current?.contains(document.activeElement)) container.current?.focus();
  }, []);
  const cancel = (
    <button type="button" className="button secondary" disabled={busy} onClick={() => answer({ kind: 'cancel' })}>
      {t('common.cancel')}
    </button>
  );
  return (
    <div className="prompt" ref={container} tabIndex={-1}>
      <PromptBody prompt={prompt} busy={busy} answer={answer} cancel={cancel} requester={requester} t={t} />
      <Countdown expiresAt={prompt.expiresAt} />
      <ErrorAlert error={error} />
    </div>
  );
}

function Countdown({ expiresAt }: { expiresAt: string }): JSX.Element {
  const { t } = useI18n();
  const seconds = useCountdown(Date.parse(expiresAt));
  const time = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return <p className="muted countdown">{t('prompt.expires', { time })}</p>;
}

interface BodyProps {
  prompt: PendingPrompt;
  busy: boolean;
  answer(value: PromptAnswer): void;
  cancel: JSX.Element;
  requester: string;
  t: Translate;
}

function PromptBody({ prompt, busy, answer, cancel, requester, t }: BodyProps): JSX.Element {
  switch (prompt.kind) {
    case 'consent':
      return <ConsentPrompt prompt={prompt} busy={busy} answer={answer} requester={requester} t={t} />;
    case 'pin':
      return <PinPrompt prompt={prompt} busy={busy} answer={answer} cancel={cancel} requester={requester} t={t} />;
    case 'certificate':
      return (
        <article aria-label={t('prompt.certificate.ask', { requester })}>
          <p>{t('prompt.certificate.ask', { requester })}</p>
          {prompt.request.candidates.map((candidate, index) => (
            <button key={`${candidate.tokenId}/${candidate.certificateId}`} type="button" className="button primary" disabled={busy} onClick={() => answer({ kind: 'certificate', index })}>
              {commonName(candidate.subject)} ({t('tokens.validUntil', { date: candidate.notAfter.slice(0, 10) })})
            </button>
          ))}{' '}
          {cancel}
        </article>
      );
  }
}

type ConsentPromptProps = Omit<BodyProps, 'cancel'> & { prompt: Extract<PendingPrompt, { kind: 'consent' }> };

function ConsentPrompt({ prompt, busy, answer, requester, t }: ConsentPromptProps): JSX.Element {
  const r = prompt.request;
  const ask = t(`prompt.consent.${r.purpose}` as MessageKey, { requester });
  return (
    <article aria-label={ask}>
      <p className="prompt-question">{ask}</p>
      {r.documents && <ConsentDocuments documents={r.documents} t={t} />}
      <dl className="facts">
        {!r.documents && r.documentName && (
          <>
            <dt>{t('prompt.document')}</dt>
            <dd>{r.documentName}</dd>
          </>
        )}
        {!r.documents && r.documentDigest && (
          <>
            <dt>SHA-256</dt>
            <dd className="mono">{r.documentDigest}</dd>
          </>
        )}
        {r.level && (
          <>
            <dt>{t('sign.baseline')}</dt>
            <dd>{t(`sign.baseline.${r.level.replace('-', '').toLowerCase()}` as MessageKey)}</dd>
          </>
        )}
        <dt>{t('prompt.signer')}</dt>
        <dd>
          <NameParts dn={r.signerSubject} t={t} />
        </dd>
        <dt>{t('prompt.issuer')}</dt>
        <dd translate="no">{commonName(r.signerIssuer)}</dd>
        {r.reason && (
          <>
            <dt>{t('prompt.reason')}</dt>
            <dd>{r.reason}</dd>
          </>
        )}
      </dl>
      <button type="button" className="button primary" disabled={busy} onClick={() => answer({ kind: 'consent', accept: true })}>
        {t(`prompt.consent.accept.${r.purpose}` as MessageKey)}
      </button>{' '}
      <button type="button" className="button danger" disabled={busy} onClick={() => answer({ kind: 'consent', accept: false })}>
        {t('prompt.decline')}
      </button>
    </article>
  );
}

/**
 * Who asks, in words a person recognises: the station's own window says so; a web page is named by its site,
 * with the full origin beside it, since the scheme and port are part of who it is.
 */
function requesterName(request: Pick<SignatureConsentRequest, 'requester' | 'requesterKind'>, t: Translate): string {
  const kind = request.requesterKind ?? kindOf(request.requester);
  if (kind === 'window') return t('prompt.requester.window');
  if (kind !== 'web-page') return request.requester;
  return t('prompt.requester.site', { site: new URL(request.requester).host, origin: request.requester });
}

/**
 * PIN and certificate prompts name their requester by origin only: the window's own origin is this window, any
 * other origin a web page; anything else (a client id) is shown as it is.
 */
function kindOf(requester: string): NonNullable<SignatureConsentRequest['requesterKind']> {
  if (requester === window.location.origin) return 'window';
  return /^https?:\/\/[^/]+$/.test(requester) ? 'web-page' : 'client';
}

/** Every file the signature covers, each with its size; its fingerprint one click away, for those who compare it. */
function ConsentDocuments({ documents, t }: { documents: ConsentDocument[]; t: Translate }): JSX.Element {
  const heading = t('prompt.files', { n: documents.length });
  return (
    <>
      <p className="prompt-files">{heading}</p>
      <ol className="list" aria-label={heading}>
        {documents.map((document, index) => (
          <li key={`${index}/${document.name}`}>
            <span translate="no">{document.name}</span> <span className="muted">({t('prompt.module.bytes', { n: document.sizeBytes })})</span>
            <details>
              <summary>{t('prompt.showDigest')}</summary>
              <span className="mono digest">{document.sha256}</span>
            </details>
          </li>
        ))}
      </ol>
    </>
  );
}

function NameParts({ dn, t }: { dn: string; t: Translate }): JSX.Element {
  return (
    <span className="name-parts">
      {humaneName(dn, t).map((part) => (
        <span key={`${part.label}=${part.value}`}>
          <span className="muted">{part.label}:</span> <span translate="no">{part.value}</span>
        </span>
      ))}
    </span>
  );
}

type PinPromptProps = BodyProps & { prompt: Extract<PendingPrompt, { kind: 'pin' }> };

function PinPrompt({ prompt, busy, answer, cancel, requester, t }: PinPromptProps): JSX.Element {
  const r = prompt.request;
  const pinLabel = t(`pinLabel.${r.pinLabel}` as MessageKey) ?? r.pinLabel;
  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('pin') as HTMLInputElement;
    const pin = input.value;
    // The PIN leaves the field at once: it lives only in the request body on its way to the token.
    input.value = '';
    answer({ kind: 'pin', pin });
  };
  return (
    <form aria-label={t('prompt.pin.label')} onSubmit={submit}>
      <p>
        {t('prompt.pin.ask', { requester, pinLabel: pinLabel || r.pinLabel, token: r.tokenLabel })}
        {r.previousAttemptFailed && <strong className="warning"> {t('prompt.pin.wrong')}</strong>}
        {r.retriesLeft !== undefined && <span> {t('prompt.pin.triesLeft', { n: r.retriesLeft })}</span>}
        {r.finalTry && <strong className="warning"> {t('prompt.pin.final')}</strong>}
        {r.countLow && !r.finalTry && <strong className="warning"> {t('prompt.pin.countLow')}</strong>}
      </p>
      <label className="field">
        {t('prompt.pin.label')}
        <input name="pin" type="password" autoComplete="off" inputMode="numeric" required autoFocus />
      </label>{' '}
      <button type="submit" className="button primary" disabled={busy}>
        {t('prompt.ok')}
      </button>{' '}
      {cancel}
    </form>
  );
}
