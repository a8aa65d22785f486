import type { JSX } from 'react';
import type { DocumentVerification, Indication, PdfChanges, SignatureVerification, SubIndication } from '../../../core/schemas/verification-report.js';
import { describeSignature } from '../../../core/verification/describe-signature.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { useI18n } from '../i18n/i18n.js';
import { commonName } from '../parts/humane-name.js';
import { TrustIssuer } from '../trust/trust-issuer.js';
import { ContainerFiles } from './container-files.js';

/** Green, yellow, red, each with its own icon and words: the verdict never rests on colour alone. */
const LOOK: Record<Indication, { className: string; icon: string }> = {
  'TOTAL-PASSED': { className: 'valid', icon: '✔' },
  INDETERMINATE: { className: 'indeterminate', icon: '?' },
  'TOTAL-FAILED': { className: 'invalid', icon: '✖' },
};

/** What a person can do about a verdict, where there is something. */
const ADVICE: Partial<Record<SubIndication, MessageKey>> = {
  NO_CERTIFICATE_CHAIN_FOUND: 'verdict.advice.NO_CERTIFICATE_CHAIN_FOUND',
  HASH_FAILURE: 'verdict.advice.HASH_FAILURE',
  SIG_CRYPTO_FAILURE: 'verdict.advice.SIG_CRYPTO_FAILURE',
  TRY_LATER: 'verdict.advice.TRY_LATER',
  SIGNED_DATA_NOT_FOUND: 'verdict.advice.SIGNED_DATA_NOT_FOUND',
  OUT_OF_BOUNDS_NO_POE: 'verdict.advice.OUT_OF_BOUNDS_NO_POE',
  REVOKED: 'verdict.advice.REVOKED',
};

/**
 * A checked file: its verdict first, in words with colour and icon; then each signature with the one reason that
 * decides it and what to do, who signed, when and at what level; the full technical record one click away.
 */
export function VerificationReportView({ report }: { report: DocumentVerification }): JSX.Element {
  const { t } = useI18n();
  const look = LOOK[report.indication ?? 'INDETERMINATE'];
  const file = report.file;
  const headline =
    report.signatures.length === 0
      ? t('verify.none', { file })
      : report.indication === 'TOTAL-PASSED'
        ? t('verify.allValid', { file, count: report.signatures.length })
        : report.indication === 'INDETERMINATE'
          ? t('verify.indeterminate', { file })
          : t('verify.notValid', { file });
  return (
    <div className="report">
      <p className={`verdict ${look.className}`} data-testid="verdict">
        <span className="verdict-icon" aria-hidden="true">
          {look.icon}
        </span>{' '}
        <strong>{report.signatures.length === 0 ? t('verdict.none') : t(`verdict.${report.indication ?? 'INDETERMINATE'}`)}</strong> {headline}
      </p>
      <ol className="signatures">
        {report.signatures.map((signature, index) => (
          <SignatureVerdict key={index} signature={signature} />
        ))}
      </ol>
      <ContainerFiles report={report} />
    </div>
  );
}

function SignatureVerdict({ signature }: { signature: SignatureVerification }): JSX.Element {
  const { t, dateTime } = useI18n();
  const { verdict } = signature;
  const look = LOOK[verdict.indication];
  const name = signature.signer ? commonName(signature.signer) : t('verdict.unknownSigner');
  const sub = verdict.subIndication;
  const advice = sub ? ADVICE[sub] : undefined;
  const time = signature.timestamp
    ? t('verdict.time.timestamp', { time: dateTime(signature.timestamp.time) })
    : signature.claimedTime
      ? t('verdict.time.claimed', { time: dateTime(signature.claimedTime) })
      : undefined;
  return (
    <li className={`signature-verdict ${look.className}`}>
      <p>
        <span className="verdict-icon" aria-hidden="true">
          {look.icon}
        </span>{' '}
        <strong>{t(`verdict.${verdict.indication}`)}</strong> · {t(signature.kind === 'RFC 3161 timestamp' ? 'verdict.timestamp' : 'verdict.signature', { name })}
      </p>
      {sub && <p data-testid="verdict-reason">{t(`verdict.reason.${sub}`)}</p>}
      {advice && <p className="advice">{t(advice)}</p>}
      <TrustIssuer signature={signature} />
      <dl className="facts">
        {time && (
          <>
            <dt>{t('verdict.time')}</dt>
            <dd>{time}</dd>
          </>
        )}
        {signature.level && (
          <>
            <dt>{t('verdict.level')}</dt>
            <dd translate="no">{signature.level}</dd>
          </>
        )}
        {signature.qualification && (
          <>
            <dt>{t('verdict.qualification')}</dt>
            <dd translate="no">{signature.qualification.level}</dd>
          </>
        )}
        {signature.reason && (
          <>
            <dt>{t('verdict.signingReason')}</dt>
            <dd translate="no">{signature.reason}</dd>
          </>
        )}
        {signature.changesAfterSigning && (
          <>
            <dt>{t('verdict.changes')}</dt>
            <dd data-testid="changes-after-signing">
              <ChangesAfterSigning changes={signature.changesAfterSigning} />
            </dd>
          </>
        )}
      </dl>
      <details>
        <summary>{t('verify.details')}</summary>
        <p className="muted">{t('verdict.judgedAt', { time: dateTime(verdict.judgedAt) })}</p>
        {signature.qualification?.atIssuance && <p className="muted">{t('verdict.qualification.atIssuance', { time: dateTime(signature.qualification.atIssuance.time), level: signature.qualification.atIssuance.level })}</p>}
        {signature.qualification?.atSigning && <p className="muted">{t('verdict.qualification.atSigning', { time: dateTime(signature.qualification.atSigning.time), level: signature.qualification.atSigning.level })}</p>}
        <p className="mono" translate="no">
          {describeSignature(signature)}
        </p>
        <pre translate="no">{JSON.stringify(signature, null, 2)}</pre>
      </details>
    </li>
  );
}

/** What a PDF's later revisions changed after a signature, one kind per line, and whether that was allowed. */
function ChangesAfterSigning({ changes }: { changes: PdfChanges }): JSX.Element {
  const { t } = useI18n();
  const pages = (list: number[]): string => list.join(', ');
  const lines = [
    changes.pagesAdded.length > 0 && t('verdict.changes.pagesAdded', { pages: pages(changes.pagesAdded) }),
    changes.pagesRemoved.length > 0 && t('verdict.changes.pagesRemoved', { pages: pages(changes.pagesRemoved) }),
    changes.pagesChanged.length > 0 && t('verdict.changes.pagesChanged', { pages: pages(changes.pagesChanged) }),
    changes.annotationPages.length > 0 && t('verdict.changes.annotations', { pages: pages(changes.annotationPages) }),
    changes.formFields.length > 0 && t('verdict.changes.formFields', { fields: changes.formFields.join(', ') }),
    changes.signaturesAdded > 0 && t('verdict.changes.signatures', { count: changes.signaturesAdded }),
    changes.otherObjects > 0 && t('verdict.changes.otherObjects', { count: changes.otherObjects }),
  ].filter((line): line is string => typeof line === 'string');
  return (
    <>
      {(lines.length > 0 ? lines : [t('verdict.changes.other')]).map((line) => (
        <span key={line} className="change">
          {line}
          <br />
        </span>
      ))}
      {!changes.allowed && <strong className="advice">{t('verdict.changes.notAllowed')}</strong>}
    </>
  );
}
