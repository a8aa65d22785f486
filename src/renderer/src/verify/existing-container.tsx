import { useEffect, useState, type JSX } from 'react';
import type { DocumentVerification } from '../../../core/schemas/verification-report.js';
import { useI18n } from '../i18n/i18n.js';
import { ErrorAlert } from '../parts/error-alert.js';
import { verifyFile } from './verify-flow.js';
import { VerificationReportView } from './verification-report-view.js';
import { ContainerFiles } from './container-files.js';

/** The signatures a container holds already, checked as the Verify screen checks them, before the user adds theirs. */
export function ExistingContainer({ file }: { file: File }): JSX.Element {
  const { t } = useI18n();
  const [report, setReport] = useState<DocumentVerification>();
  const [error, setError] = useState<unknown>();
  useEffect(() => {
    let current = true;
    verifyFile(file).then(
      (next) => current && setReport(next),
      (reason: unknown) => current && setError(reason),
    );
    return () => {
      current = false;
    };
  }, [file]);
  return (
    <section className="container-view" aria-label={t('container.heading', { file: file.name })} data-testid="existing-container">
      <h3>{t('container.heading', { file: file.name })}</h3>
      {report &&
        (report.signatures.length === 0 ? (
          <>
            <p>{t('container.none')}</p>
            <ContainerFiles report={report} />
          </>
        ) : (
          <VerificationReportView report={report} />
        ))}
      {!report && !error && <p className="muted">{t('common.busy')}</p>}
      <ErrorAlert error={error} />
    </section>
  );
}
