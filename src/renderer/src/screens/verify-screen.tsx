import { useEffect, useRef, useState, type FormEvent, type JSX } from 'react';
import { useI18n } from '../i18n/i18n.js';
import { FilePicker } from '../parts/file-picker.js';
import { ErrorAlert } from '../parts/error-alert.js';
import type { DocumentVerification } from '../../../core/schemas/verification-report.js';
import { verifyFile } from '../verify/verify-flow.js';
import { VerificationReportView } from '../verify/verification-report-view.js';
import type { VerifySavedRequest } from '../verify/verify-saved-context.js';
import { fetchSaved } from '../signing/fetch-saved.js';

/**
 * A signed PDF, ASiC-E container or timestamp token, checked by the station's verification service: one the user
 * picks, or a result's "verify this file" (`saved`), read back from the output folder and checked at once.
 */
export function VerifyScreen({ saved }: { saved?: { request: VerifySavedRequest } | undefined }): JSX.Element {
  const { t } = useI18n();
  const [file, setFile] = useState<File>();
  const [report, setReport] = useState<DocumentVerification>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  // The verdict is the answer the user waits for: the view and the keyboard focus go to it, below the form.
  const result = useRef<HTMLDivElement>(null);
  useEffect(() => {
    result.current?.focus({ preventScroll: true });
    result.current?.scrollIntoView({ block: 'start' });
  }, [report]);

  async function check(work: () => Promise<DocumentVerification>): Promise<void> {
    setError(undefined);
    setBusy(true);
    try {
      setReport(await work());
    } catch (reason) {
      setReport(undefined);
      setError(reason);
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    if (!saved) return;
    const { saved: result, data } = saved.request;
    void check(async () => verifyFile(await fetchSaved(result.fileName), data));
  }, [saved]);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (file) await check(() => verifyFile(file));
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
      {busy && (
        <p className="muted" role="status">
          {t('common.busy')}
        </p>
      )}
      {report && (
        <div role="status" aria-label={t('verify.result')} ref={result} tabIndex={-1}>
          <VerificationReportView report={report} />
        </div>
      )}
      <ErrorAlert error={error} />
    </section>
  );
}
