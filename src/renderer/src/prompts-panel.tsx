import { useState, type FormEvent, type JSX } from 'react';
import type { PendingPrompt, PromptAnswer } from '../../core/schemas/admin-api.js';
import { stationApi } from './station-api.js';

const CONSENT_ASKS = { sign: 'sign', authenticate: 'authenticate', 'read-certificate': 'let it read your signing certificate' } as const;
const CONSENT_ACCEPTS = { sign: 'Sign', authenticate: 'Authenticate', 'read-certificate': 'Allow' } as const;

/** The station's own trusted prompts: consent shows the real requester, the document and the signer. */
export function PromptsPanel({ prompts, onAnswered }: { prompts: PendingPrompt[]; onAnswered(): void }): JSX.Element | null {
  if (prompts.length === 0) return null;
  return (
    <section className="panel prompts" aria-labelledby="prompts-heading">
      <h2 id="prompts-heading">Waiting for you</h2>
      {prompts.map((prompt) => (
        <Prompt key={prompt.id} prompt={prompt} onAnswered={onAnswered} />
      ))}
    </section>
  );
}

function Prompt({ prompt, onAnswered }: { prompt: PendingPrompt; onAnswered(): void }): JSX.Element {
  const [busy, setBusy] = useState(false);
  const answer = (value: PromptAnswer): void => {
    setBusy(true);
    void stationApi.answerPrompt(prompt.id, value).finally(onAnswered);
  };
  const cancel = (
    <button type="button" disabled={busy} onClick={() => answer({ kind: 'cancel' })}>
      Cancel
    </button>
  );

  switch (prompt.kind) {
    case 'consent': {
      const r = prompt.request;
      return (
        <article className="prompt" aria-label="Consent">
          <p>
            <strong>{r.requester}</strong> asks you to {CONSENT_ASKS[r.purpose]}.
          </p>
          <dl className="facts">
            {r.documentName && (
              <>
                <dt>Document</dt>
                <dd>{r.documentName}</dd>
              </>
            )}
            {r.documentDigest && (
              <>
                <dt>SHA-256</dt>
                <dd className="mono">{r.documentDigest}</dd>
              </>
            )}
            <dt>Signer</dt>
            <dd>{r.signerSubject}</dd>
            <dt>Issuer</dt>
            <dd>{r.signerIssuer}</dd>
            {r.reason && (
              <>
                <dt>Reason</dt>
                <dd>{r.reason}</dd>
              </>
            )}
          </dl>
          <button type="button" disabled={busy} onClick={() => answer({ kind: 'consent', accept: true })}>
            {CONSENT_ACCEPTS[r.purpose]}
          </button>{' '}
          <button type="button" disabled={busy} onClick={() => answer({ kind: 'consent', accept: false })}>
            Decline
          </button>
        </article>
      );
    }
    case 'pin': {
      const r = prompt.request;
      const submit = (event: FormEvent<HTMLFormElement>): void => {
        event.preventDefault();
        const input = event.currentTarget.elements.namedItem('pin') as HTMLInputElement;
        const pin = input.value;
        input.value = '';
        answer({ kind: 'pin', pin });
      };
      return (
        <form className="prompt" aria-label="PIN" onSubmit={submit}>
          <p>
            {r.requester} needs the <strong>{r.pinLabel}</strong> of {r.tokenLabel}.
            {r.previousAttemptFailed && <span className="warning"> Wrong PIN.</span>}
            {r.retriesLeft !== undefined && <span> {r.retriesLeft} tries left.</span>}
            {r.finalTry && <span className="warning"> Last try before the PIN is blocked.</span>}
          </p>
          <input name="pin" type="password" autoComplete="off" inputMode="numeric" required autoFocus />{' '}
          <button type="submit" disabled={busy}>
            OK
          </button>{' '}
          {cancel}
        </form>
      );
    }
    case 'certificate':
      return (
        <article className="prompt" aria-label="Choose certificate">
          <p>{prompt.request.requester} asks which certificate to use:</p>
          {prompt.request.candidates.map((candidate, index) => (
            <button key={`${candidate.tokenId}/${candidate.certificateId}`} type="button" disabled={busy} onClick={() => answer({ kind: 'certificate', index })}>
              {candidate.subject} (until {candidate.notAfter.slice(0, 10)})
            </button>
          ))}{' '}
          {cancel}
        </article>
      );
    case 'module': {
      const r = prompt.request;
      return (
        <article className="prompt" aria-label="Trust module">
          <p>
            {r.requester} asks to load a PKCS#11 library from outside the system’s module directories. Loading it runs its code
            inside the station: trust it only if you installed this exact file.
          </p>
          <dl className="facts">
            <dt>File</dt>
            <dd className="mono">{r.path}</dd>
            <dt>SHA-256</dt>
            <dd className="mono">{r.sha256}</dd>
            <dt>Size</dt>
            <dd>{r.sizeBytes.toLocaleString()} bytes</dd>
          </dl>
          <button type="button" disabled={busy} onClick={() => answer({ kind: 'module', trust: true })}>
            Trust and load
          </button>{' '}
          <button type="button" disabled={busy} onClick={() => answer({ kind: 'module', trust: false })}>
            Refuse
          </button>
        </article>
      );
    }
  }
}
