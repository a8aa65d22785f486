import { useState, type FormEvent, type JSX } from 'react';
import type { PendingPrompt, PromptAnswer } from '../../core/schemas/admin-api.js';
import { ErrorAlert } from './error-alert.js';
import { stationApi } from './station-api.js';

const CONSENT_ASKS = { sign: 'sign', authenticate: 'authenticate', 'read-certificate': 'let it read your signing certificate' } as const;
const CONSENT_ACCEPTS = { sign: 'Sign', authenticate: 'Authenticate', 'read-certificate': 'Allow' } as const;

/**
 * The station's own trusted prompts: consent shows the real requester, the document and the signer. An answer the
 * station refuses is shown here (it outlives the prompt, which may be gone by then) and the prompt can be answered
 * again.
 */
export function PromptsPanel({ prompts, onAnswered }: { prompts: PendingPrompt[]; onAnswered(): void }): JSX.Element | null {
  const [failure, setFailure] = useState<string>();
  if (prompts.length === 0 && !failure) return null;
  const answered = (): void => {
    setFailure(undefined);
    onAnswered();
  };
  const failed = (message: string): void => {
    setFailure(message);
    onAnswered();
  };
  return (
    <section className="panel prompts" aria-labelledby="prompts-heading">
      <h2 id="prompts-heading">Waiting for you</h2>
      <ErrorAlert message={failure} />
      {prompts.map((prompt) => (
        <Prompt key={prompt.id} prompt={prompt} onAnswered={answered} onFailed={failed} />
      ))}
    </section>
  );
}

interface PromptProps<P extends PendingPrompt = PendingPrompt> {
  prompt: P;
  onAnswered(): void;
  onFailed(message: string): void;
}

type Answering = { busy: boolean; answer(value: PromptAnswer): void };

/** Sends one answer at a time; a refused answer is reported and the prompt's buttons come back. */
function useAnswer({ prompt, onAnswered, onFailed }: PromptProps): Answering {
  const [busy, setBusy] = useState(false);
  const answer = (value: PromptAnswer): void => {
    setBusy(true);
    stationApi.answerPrompt(prompt.id, value).then(onAnswered, (reason: unknown) => {
      setBusy(false);
      onFailed(`The station did not take that answer: ${reason instanceof Error ? reason.message : String(reason)}`);
    });
  };
  return { busy, answer };
}

function Prompt(props: PromptProps): JSX.Element {
  const { prompt } = props;
  switch (prompt.kind) {
    case 'consent':
      return <ConsentPrompt {...props} prompt={prompt} />;
    case 'pin':
      return <PinPrompt {...props} prompt={prompt} />;
    case 'certificate':
      return <CertificatePrompt {...props} prompt={prompt} />;
    case 'module':
      return <ModulePrompt {...props} prompt={prompt} />;
  }
}

function CancelButton({ busy, answer }: Answering): JSX.Element {
  return (
    <button type="button" disabled={busy} onClick={() => answer({ kind: 'cancel' })}>
      Cancel
    </button>
  );
}

function ConsentPrompt(props: PromptProps<Extract<PendingPrompt, { kind: 'consent' }>>): JSX.Element {
  const { busy, answer } = useAnswer(props);
  const r = props.prompt.request;
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

function PinPrompt(props: PromptProps<Extract<PendingPrompt, { kind: 'pin' }>>): JSX.Element {
  const answering = useAnswer(props);
  const r = props.prompt.request;
  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem('pin') as HTMLInputElement;
    const pin = input.value;
    input.value = '';
    answering.answer({ kind: 'pin', pin });
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
      <button type="submit" disabled={answering.busy}>
        OK
      </button>{' '}
      <CancelButton {...answering} />
    </form>
  );
}

function CertificatePrompt(props: PromptProps<Extract<PendingPrompt, { kind: 'certificate' }>>): JSX.Element {
  const answering = useAnswer(props);
  const { request } = props.prompt;
  return (
    <article className="prompt" aria-label="Choose certificate">
      <p>{request.requester} asks which certificate to use:</p>
      {request.candidates.map((candidate, index) => (
        <button key={`${candidate.tokenId}/${candidate.certificateId}`} type="button" disabled={answering.busy} onClick={() => answering.answer({ kind: 'certificate', index })}>
          {candidate.subject} (until {candidate.notAfter.slice(0, 10)})
        </button>
      ))}{' '}
      <CancelButton {...answering} />
    </article>
  );
}

function ModulePrompt(props: PromptProps<Extract<PendingPrompt, { kind: 'module' }>>): JSX.Element {
  const { busy, answer } = useAnswer(props);
  const r = props.prompt.request;
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
