import type { JSX } from 'react';
import type { DocumentVerification } from '../../../core/schemas/verification-report.js';
import { useI18n } from '../i18n/i18n.js';
import { commonName } from '../parts/humane-name.js';

/**
 * A container's data files, each with its size, SHA-256 and the signatures that cover it (by their number in the
 * verification result and their signer), so a file no signature names stands out before anyone relies on it.
 */
export function ContainerFiles({ report }: { report: DocumentVerification }): JSX.Element | null {
  const { t, language } = useI18n();
  if (!report.files) return null;
  return (
    <section className="container-files" aria-label={t('container.files')} data-testid="container-files">
      <h4>{t('container.files')}</h4>
      <ul>
        {report.files.map((file) => (
          <li key={file.name} data-testid="container-file">
            <strong translate="no">{file.name}</strong> <span className="muted">({t('prompt.module.bytes', { n: file.size })})</span>
            {file.coveredBy.length === 0 ? (
              <p className="uncovered">{t('container.notCovered')}</p>
            ) : (
              <p>
                {t('container.coveredBy')}{' '}
                {new Intl.ListFormat(language, { type: 'conjunction' }).format(
                  file.coveredBy.map((index) => {
                    const signer = report.signatures[index]?.signer;
                    return t('container.signature', { number: index + 1, name: signer ? commonName(signer) : t('verdict.unknownSigner') });
                  }),
                )}
              </p>
            )}
            <p className="mono muted" translate="no">
              SHA-256 {file.sha256}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
