import { lazy, Suspense, useEffect, useRef, useState, type Dispatch, type FormEvent, type JSX, type SetStateAction } from 'react';
import type { StationState } from '../../../core/schemas/station-state.js';
import type { DeskSavedFile } from '../../../core/schemas/desk-api.js';
import type { TokenCertificate, TokenDescription } from '../../../core/schemas/token-description.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { languages, useI18n, type Language } from '../i18n/i18n.js';
import { LanguageOptions } from '../parts/language-options.js';
import { FilePicker } from '../parts/file-picker.js';
import { SavedFile } from '../parts/saved-file.js';
import { ChosenFiles } from '../parts/chosen-files.js';
import { ErrorAlert } from '../parts/error-alert.js';
import { commonName } from '../parts/humane-name.js';
import { signDocuments, type SignStep } from '../signing/sign-flow.js';
import { signBatch, type BatchDocument } from '../signing/sign-batch.js';
import { isCancel } from '../signing/is-cancel.js';
import { BatchProgress } from '../parts/batch-progress.js';
import { ExistingContainer } from '../verify/existing-container.js';
import type { SignatureBaseline } from '../../../core/schemas/signature-baseline.js';
import type { VisibleSignaturePlacement } from '../../../core/schemas/visible-signature-placement.js';
import type { StampPreview } from '../pdf-preview/page-placement.js';

/** pdf.js comes with the preview, in its own chunk, when a PDF is picked: the window's first paint never waits for it. */
const PagePlacement = lazy(() => import('../pdf-preview/page-placement.js'));

const BASELINES: readonly SignatureBaseline[] = ['B-B', 'B-T', 'B-LT', 'B-LTA'];

/** Pick or drop files, choose a signing certificate among those plugged in now, sign, and see where it went. */
export function SignScreen({ state, opened, onSettled }: { state: StationState; opened?: File[] | undefined; onSettled?(): void }): JSX.Element {
  const { t, language } = useI18n();
  const [files, setFiles] = useOpenedFiles(opened);
  const [step, setStep] = useState<SignStep>();
  const [sent, setSent] = useState<number>();
  const [outcome, setOutcome] = useState<SignOutcome>();
  const [placement, setPlacement] = useState<VisibleSignaturePlacement>();
  const [pinpad, setPinpad] = useState(false);
  // Several PDFs: one container (the default), or each signed as its own PDF in one go.
  const [separately, setSeparately] = useState(false);
  const [batch, setBatch] = useState<{ files: File[]; documents: BatchDocument[] }>();
  const helperHolder = useRef<HTMLDivElement>(null);
  // A result speaks of the files it was made from: once others are chosen it would read as theirs, so it is not shown.
  const shown = outcome && (outcome.files === files || files.length === 0) ? outcome : undefined;
  const choices = signingChoices(state);
  const single = files.length === 1 && /\.pdf$/i.test(files[0]!.name);
  const severalPdfs = files.length > 1 && files.every((file) => /\.pdf$/i.test(file.name));
  const eachAlone = severalPdfs && separately;
  const containerType = single ? 'pdf' : 'asice';
  const shownBatch = batch && (batch.files === files || files.length === 0) ? batch : undefined;
  const documentsKey = files.map((file) => `${file.name}/${file.size}/${file.lastModified}`).join('\n');
  // Each drop or pick adds to the files; one of the same name replaces the earlier (a container holds one of a name).
  // The chosen certificate and the reason as typed, for the stamp's preview in the box (the reason is the documents' own).
  const [typed, setTyped] = useState<{ documentsKey: string; certificate: string; reason: string }>();
  const signer = choices.find((choice) => choice.key === typed?.certificate) ?? choices[0];
  const stamp: StampPreview = { signer: signer && commonName(signer.certificate.subject), reason: typed?.documentsKey === documentsKey ? typed.reason : undefined };
  const formChanged = (event: FormEvent<HTMLFormElement>): void => {
    const form = new FormData(event.currentTarget);
    setTyped({ documentsKey, certificate: String(form.get('certificate') ?? ''), reason: String(form.get('reason') ?? '').trim() });
  };
  const addFiles = (added: File[]): void => setFiles((current) => [...current.filter((file) => !added.some((next) => next.name === file.name)), ...added]);

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = choices.find((choice) => choice.key === form.get('certificate'));
    if (!chosen || files.length === 0) return;
    const reason = String(form.get('reason') ?? '').trim();
    const baseline = BASELINES.find((level) => level === form.get('baseline')) ?? 'B-T';
    const containerName = String(form.get('containerName') ?? '').trim();
    const labels = single || eachAlone ? { stampLanguage: stampLanguageOf(form, language) } : {};
    setOutcome(undefined);
    setBatch(undefined);
    setPinpad(chosen.token.pin.pinpad);
    if (eachAlone) {
      await signEachAlone({ files, baseline, token: chosen.token, certificateId: chosen.certificate.id, ...(reason ? { reason } : {}), ...labels });
      return;
    }
    try {
      const placed = single && placement ? { placement } : {};
      const named = containerName ? { containerName } : {};
      const order = { files, containerType, baseline, token: chosen.token, certificateId: chosen.certificate.id, ...(reason ? { reason } : {}), ...placed, ...labels, ...named } as const;
      const saved = await signDocuments(order, helperHolder.current!, (next, fraction) => {
        setStep(next);
        setSent(fraction);
      });
      setOutcome({ files, saved });
      // Signed: the form is ready for the next documents, the result stays until they are chosen.
      setFiles([]);
    } catch (reason) {
      setOutcome({ files, error: isCancel(reason) ? { cancelled: true } : { cancelled: false, reason } });
    } finally {
      setStep(undefined);
      onSettled?.();
    }
  }

  /** A batch: its documents' progress is the outcome; the files are cleared once every one of them is signed. */
  async function signEachAlone(order: Parameters<typeof signBatch>[0]): Promise<void> {
    const chosenFiles = order.files;
    try {
      setStep('prepare');
      const documents = await signBatch(order, helperHolder.current!, (next, fraction) => {
        setBatch({ files: chosenFiles, documents: next });
        setStep(fraction === undefined ? 'consent' : 'prepare');
        setSent(fraction);
      });
      if (documents.every((document) => document.status === 'signed')) setFiles([]);
    } catch (reason) {
      setBatch(undefined);
      setOutcome({ files: chosenFiles, error: isCancel(reason) ? { cancelled: true } : { cancelled: false, reason } });
    } finally {
      setStep(undefined);
      onSettled?.();
    }
  }

  return (
    <section className="panel" aria-labelledby="sign-heading">
      <h2 id="sign-heading">{t('sign.heading')}</h2>
      <p className="muted">{t('sign.intro')}</p>
      <form className="stack" aria-label={t('sign.heading')} onSubmit={(event) => void submit(event)} onChange={formChanged}>
        <FilePicker multiple adds label={t('common.chooseFiles')} onFiles={addFiles} />
        <ChosenFiles files={files} onFiles={setFiles} />
        {severalPdfs && <BatchChoice separately={separately} onChange={setSeparately} />}
        {/* Keyed by the documents (each sibling its own key, or React draws them again): a new document starts with
            no box and no reason, never the last one's. */}
        <SignatureFormat key={`format/${documentsKey}`} files={files} single={single || eachAlone} />
        {single && <PreviewAndPlacement key={`placement/${documentsKey}`} file={files[0]!} stamp={stamp} onPlacement={setPlacement} />}
        <CertificateChoice choices={choices} />
        {signer?.certificate.pinEverySignature && (
          <p className="muted" data-testid="pin-every-signature">
            {t('sign.pinEverySignature', { token: signer.token.label })}
          </p>
        )}
        <ReasonAndLevel documentsKey={documentsKey} />
        {eachAlone && Boolean(stamp.reason) && <StampLanguageChoice />}
        <div>
          <button type="submit" className="button primary" disabled={step !== undefined || files.length === 0 || choices.length === 0}>
            {t('sign.submit')}
          </button>
          <p className="muted" data-testid="saves-to">
            {t('sign.savesTo', { folder: state.outputDir })}
          </p>
        </div>
      </form>
      {/* The station's iframe helper, which the browser client frames to sign; the station's own prompts say everything it would. */}
      <div ref={helperHolder} hidden data-testid="signing-helper" />
      {shownBatch && <BatchProgress documents={shownBatch.documents} />}
      <SigningOutcome step={step} sent={sent} saved={shown?.saved} error={shown?.error} pinpad={pinpad} />
    </section>
  );
}

/**
 * The visible signature's labels in the language the user chose for the document, the window's when no choice is
 * shown: a reason's stamp without a placed box is written in it too.
 */
function stampLanguageOf(form: FormData, windowLanguage: Language): Language {
  return languages.find((language) => language === form.get('stampLanguage')) ?? windowLanguage;
}

/** The document's signing language, offered whenever a stamp will be drawn (a placed box, or a reason). */
function StampLanguageChoice(): JSX.Element {
  const { t, language } = useI18n();
  return (
    <label className="field">
      {t('sign.place.language')}
      <select name="stampLanguage" defaultValue={language}>
        <LanguageOptions />
      </select>
    </label>
  );
}

/** How signing `files` ended: where the signed file went, or why it was not signed. */
interface SignOutcome {
  files: File[];
  saved?: DeskSavedFile;
  /** Kept as what happened, not as words: it is put in words when shown, in the language chosen then. */
  error?: { cancelled: true } | { cancelled: false; reason: unknown };
}

/** The files to sign, starting with those the app was opened with ("open with", a deep link). */
function useOpenedFiles(opened: File[] | undefined): [File[], Dispatch<SetStateAction<File[]>>] {
  const [files, setFiles] = useState<File[]>([]);
  useEffect(() => {
    if (opened) setFiles(opened);
  }, [opened]);
  return [files, setFiles];
}

/**
 * The step under way (with upload progress), then where the signed file went, or why it was not signed. On a
 * PIN-pad reader the PIN is typed on the reader, never in the station: the consent step says so.
 */
function SigningOutcome(props: { step: SignStep | undefined; sent: number | undefined; saved: DeskSavedFile | undefined; error: SignOutcome['error']; pinpad: boolean }): JSX.Element {
  const { step, sent, saved, error } = props;
  const { t } = useI18n();
  // The outcome may be far below the form: the view and the keyboard focus go to it, so it is seen and read first.
  const outcome = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!saved && !error) return;
    outcome.current?.focus({ preventScroll: true });
    outcome.current?.scrollIntoView({ block: 'nearest' });
  }, [saved, error]);
  return (
    <>
      <p role="status" aria-live="polite" className="muted">
        {step ? t(step === 'consent' && props.pinpad ? 'sign.progress.consentPinpad' : (`sign.progress.${step}` as MessageKey)) : ''}
      </p>
      {step === 'prepare' && sent !== undefined && <progress max={1} value={sent} aria-label={t('sign.progress.prepare')} />}
      <div ref={outcome} tabIndex={-1} className="outcome" data-testid="sign-outcome">
        {saved && <SavedFile saved={saved} heading={t('sign.done')} />}
        {error?.cancelled ? <p role="alert">{t('sign.cancelled')}</p> : <ErrorAlert error={error?.reason} within="sign.failed" />}
      </div>
    </>
  );
}

/** Several PDFs: together in one container, or each signed as its own PDF. */
function BatchChoice({ separately, onChange }: { separately: boolean; onChange(separately: boolean): void }): JSX.Element {
  const { t } = useI18n();
  return (
    <fieldset className="choice">
      <legend>{t('sign.batch.how')}</legend>
      <label className="check">
        <input type="radio" name="how" value="together" checked={!separately} onChange={() => onChange(false)} />
        {t('sign.batch.together')}
      </label>
      <label className="check">
        <input type="radio" name="how" value="separately" checked={separately} onChange={() => onChange(true)} />
        {t('sign.batch.separately')}
      </label>
    </fieldset>
  );
}

/** A PDF's page preview, and the switch that puts the visible signature's box on it. */
function PreviewAndPlacement({ file, stamp, onPlacement }: { file: File; stamp: StampPreview; onPlacement(placement: VisibleSignaturePlacement | undefined): void }): JSX.Element {
  const { t } = useI18n();
  const [visible, setVisible] = useState(false);
  return (
    <>
      <label className="check">
        <input type="checkbox" name="visible" checked={visible} onChange={(event) => setVisible(event.currentTarget.checked)} />
        {t('sign.place.visible')}
      </label>
      {(visible || Boolean(stamp.reason)) && <StampLanguageChoice />}
      <Suspense fallback={<p className="muted">{t('sign.preview.loading')}</p>}>
        <PagePlacement file={file} visible={visible} stamp={stamp} onPlacement={onPlacement} />
      </Suspense>
    </>
  );
}

/** The signing reason (each set of documents starts with none) and the baseline level (B-T by default). */
function ReasonAndLevel({ documentsKey }: { documentsKey: string }): JSX.Element {
  const { t } = useI18n();
  return (
    <>
      <label className="field">
        {t('sign.reason')}
        <input key={documentsKey} name="reason" maxLength={1000} />
      </label>
      <label className="field">
        {t('sign.baseline')}
        <select name="baseline" defaultValue="B-T">
          <option value="B-T">{t('sign.baseline.bt')}</option>
          <option value="B-B">{t('sign.baseline.bb')}</option>
          <option value="B-LT">{t('sign.baseline.blt')}</option>
          <option value="B-LTA">{t('sign.baseline.blta')}</option>
        </select>
      </label>
    </>
  );
}

interface Choice {
  token: TokenDescription;
  certificate: TokenCertificate;
  key: string;
}

/** Every valid signing certificate on the cards, tokens and stores present now. */
function signingChoices(state: StationState): Choice[] {
  return state.tokens.flatMap((token) =>
    token.certificates.filter((certificate) => certificate.usage === 'signing' && certificate.valid).map((certificate) => ({ token, certificate, key: `${token.id}/${certificate.id}` })),
  );
}

/** What the files become; a new container gets a name, its first file's by default (keyed by the files, so it follows them). */
function SignatureFormat({ files, single }: { files: File[]; single: boolean }): JSX.Element | null {
  const { t } = useI18n();
  if (files.length === 0) return null;
  const existing = files.length === 1 && /\.(asice|sce)$/i.test(files[0]!.name);
  return (
    <>
      <p>
        {t('sign.container')}: <strong>{t(single ? 'sign.container.pdf' : existing ? 'sign.container.existing' : 'sign.container.asice')}</strong>
      </p>
      {existing && <ExistingContainer file={files[0]!} />}
      {!single && !existing && (
        <label className="field">
          {t('sign.containerName')}
          <input name="containerName" maxLength={200} defaultValue={files[0]!.name.replace(/\.[^.]*$/, '') || files[0]!.name} />
        </label>
      )}
    </>
  );
}

function CertificateChoice({ choices }: { choices: Choice[] }): JSX.Element {
  const { t, date } = useI18n();
  if (choices.length === 0) {
    return (
      <p className="warning" data-testid="no-certificate">
        {t('sign.noCertificate')}
      </p>
    );
  }
  return (
    <label className="field">
      {t('sign.certificate')}
      <select name="certificate" required>
        {choices.map(({ token, certificate, key }) => (
          <option key={key} value={key}>
            {t('sign.certificateChoice', { name: commonName(certificate.subject), token: token.label, date: date(certificate.notAfter) })}
          </option>
        ))}
      </select>
    </label>
  );
}
