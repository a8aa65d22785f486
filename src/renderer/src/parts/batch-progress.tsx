import { useContext, useEffect, useRef, type JSX } from 'react';
import type { BatchDocument } from '../signing/sign-batch.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { ErrorAlert } from './error-alert.js';
import { useI18n, type Translate } from '../i18n/i18n.js';
import { VerifySavedContext } from '../verify/verify-saved-context.js';

/**
 * A batch's documents, each with where it is (waiting, the step under way, saved as, or why not), and once none
 * is left to sign, how many were signed: the view and the keyboard focus go to that summary. A signed one can be
 * verified from here, as any result.
 */
export function BatchProgress({ documents }: { documents: BatchDocument[] }): JSX.Element {
  const { t } = useI18n();
  const verify = useContext(VerifySavedContext);
  const summary = useRef<HTMLDivElement>(null);
  const finished = documents.every((document) => document.status === 'signed' || document.status === 'failed');
  useEffect(() => {
    if (!finished) return;
    summary.current?.focus({ preventScroll: true });
    summary.current?.scrollIntoView({ block: 'nearest' });
  }, [finished]);
  const signed = documents.filter((document) => document.status === 'signed').length;
  return (
    <div ref={summary} tabIndex={-1} className="outcome" data-testid="batch-outcome">
      {finished && (
        <p role="status" className={signed === documents.length ? 'result' : 'warning'} data-testid="batch-summary">
          <strong>{t('sign.batch.summary', { signed, total: documents.length })}</strong>
        </p>
      )}
      <ol className="list" aria-label={t('sign.batch.progress')}>
        {documents.map((document, index) => (
          <li key={index} className={document.status === 'failed' ? 'outcome-failed' : document.status === 'signed' ? 'outcome-signed' : undefined}>
            <span className="file-name">{document.fileName}</span>:{' '}
            {document.status === 'failed' && !document.cancelled ? <ErrorAlert error={document.reason} within="sign.failed" /> : statusText(document, t)}
            {document.status === 'signed' && verify && (
              <>
                {' '}
                <button type="button" className="button secondary" onClick={() => verify({ saved: document.saved })}>
                  {t('common.verifyNamed', { name: document.saved.fileName })}
                </button>
              </>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

function statusText(document: BatchDocument, t: Translate): string {
  switch (document.status) {
    case 'waiting':
      return t('sign.batch.waiting');
    case 'signing':
      return t(`sign.progress.${document.step}` as MessageKey);
    case 'signed':
      return t('sign.batch.signed', { name: document.saved.fileName });
    case 'failed':
      return t('sign.batch.cancelled');
  }
}
