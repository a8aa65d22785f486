import { useState, type FormEvent, type JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { FilePicker } from '../parts/file-picker.js';
import { ErrorAlert, messageOf } from '../parts/error-alert.js';
import type { DocumentVerification } from '../../../core/schemas/verification-report.js';
import { describeSignature } from '../../../core/verification/describe-signature.js';
import { verifyFile } from '../verify/verify-flow.js';
import { TrustIssuer } from './trust-issuer.js';

const VERDICT_CLASS = { 'TOTAL-PASSED': 'valid', INDETERMINATE: 'indeterminate', 'TOTAL-FAILED': 'invalid' } as const;

/** A signed PDF, ASiC-E container or timestamp token, checked by the station's verification service. */
export function VerifyScreen(): JSX.Element {
  const { t } = useI18n();
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<DocumentVerification>();
  const [error, setError] = useState<string>();

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (!file) return;
    setError(undefined);
    try {
      setReport(await verifyFile(file));
    } catch (reason) {
      setReport(undefined);
      setError(messageOf(reason));
    }
  }

  return (
    <section className="panel" aria-labelledby="verify-heading">
      <h2 id="verify-heading">{t('verify.heading')}</h2>
      <p className="muted">{t('verify.intro')}</p>
      <form className="stack" aria-label={t('verify.heading')} onSubmit={(event) => void submit(event)}>
        <FilePicker multiple={false} label={t('common.chooseFiles')} onFiles={(files) => setFile(files[0])} />
        <div>
          <button type="submit" className="button primary" disabled={!file}>
            {t('verify.submit')}
          </button>
        </div>
      </form>
      {report && (
        <div role="status" aria-label={t('verify.result')}>
          <p className={`verdict ${VERDICT_CLASS[report.indication ?? 'TOTAL-FAILED']}`}>
            {report.signatures.length === 0
              ? t('verify.none', { file: report.file })
              : report.indication === 'TOTAL-PASSED'
                ? t('verify.allValid', { file: report.file, count: report.signatures.length })
                : report.indication === 'INDETERMINATE'
                  ? t('verify.indeterminate', { file: report.file })
                  : t('verify.notValid', { file: report.file })}
          </p>
          <ol>
            {report.signatures.map((signature, index) => (
              <li key={index}>
                {describeSignature(signature)}
                <TrustIssuer signature={signature} />
                <details>
                  <summary>{t('verify.details')}</summary>
                  <pre>{JSON.stringify(signature, null, 2)}</pre>
                </details>
              </li>
            ))}
          </ol>
        </div>
      )}
      <ErrorAlert message={error} />
    </section>
  );
}
