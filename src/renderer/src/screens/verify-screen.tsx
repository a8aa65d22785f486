import { useEffect, useRef, useState, type FormEvent, type JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { FilePicker } from '../parts/file-picker.js';
import { ErrorAlert } from '../parts/error-alert.js';
import type { DocumentVerification } from '../../../core/schemas/verification-report.js';
import { verifyFile } from '../verify/verify-flow.js';
import { VerificationReportView } from '../verify/verification-report-view.js';

/** A signed PDF, ASiC-E container or timestamp token, checked by the station's verification service. */
export function VerifyScreen(): JSX.Element {
  const { t } = useI18n();
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<DocumentVerification>();
  const [error, setError] = useState<unknown>();
  // The verdict is the answer the user waits for: the view and the keyboard focus go to it, below the form.
  const result = useRef<HTMLDivElement>(null);
  useEffect(() => {
    result.current?.focus({ preventScroll: true });
    result.current?.scrollIntoView({ block: 'start' });
  }, [report]);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (!file) return;
    setError(undefined);
    try {
      setReport(await verifyFile(file));
    } catch (reason) {
      setReport(undefined);
      setError(reason);
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
        <div role="status" aria-label={t('verify.result')} ref={result} tabIndex={-1}>
          <VerificationReportView report={report} />
        </div>
      )}
      <ErrorAlert error={error} />
    </section>
  );
}
