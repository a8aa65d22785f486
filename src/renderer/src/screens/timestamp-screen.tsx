import { useState, type FormEvent, type JSX } from 'react';
import type { DeskSavedFile, DeskTimestampRequest } from '../../../core/schemas/desk-api.js';
import { useI18n } from '../i18n/i18n.js';
import { FilePicker } from '../parts/file-picker.js';
import { SavedFile } from '../parts/saved-file.js';
import { ErrorAlert } from '../parts/error-alert.js';
import { useAction } from '../parts/use-action.js';
import { stationApi } from '../station-api.js';
import { readAsBase64 } from '../signing/read-as-base64.js';

/** One file timestamped by the station's own TSA; the RFC 3161 token saved as <name>.tsr, or with the file in an ASiC-S container. */
export function TimestampScreen(): JSX.Element {
  const { t } = useI18n();
  const [file, setFile] = useState<File>();
  // The file the shown result is over (the picker may hold another by then): "verify this file" checks a token with it.
  const [stamped, setStamped] = useState<File>();
  const { busy, result: saved, error, run } = useAction<DeskSavedFile>();

  async function submit(event: FormEvent<HTMLFormElement>): Promise<void> {
    event.preventDefault();
    if (!file) return;
    const output: DeskTimestampRequest['output'] = new FormData(event.currentTarget).get('output') === 'asics' ? 'asics' : 'tsr';
    setStamped(file);
    await run(async () => stationApi.timestamp({ fileName: file.name, mimeType: file.type || 'application/octet-stream', fileContent: await readAsBase64(file), output }));
  }

  return (
    <section className="panel" aria-labelledby="timestamp-heading">
      <h2 id="timestamp-heading">{t('timestamp.heading')}</h2>
      <p className="muted">{t('timestamp.intro')}</p>
      <form className="stack" aria-label={t('timestamp.heading')} onSubmit={(event) => void submit(event)}>
        <FilePicker multiple={false} label={t('common.chooseFiles')} onFiles={(files) => setFile(files[0])} />
        <fieldset className="choices">
          <legend>{t('timestamp.output')}</legend>
          <label className="check">
            <input type="radio" name="output" value="tsr" defaultChecked />
            {t('timestamp.output.tsr')}
          </label>
          <label className="check">
            <input type="radio" name="output" value="asics" />
            {t('timestamp.output.asics')}
          </label>
        </fieldset>
        <div>
          <button type="submit" className="button primary" disabled={busy || !file}>
            {t('timestamp.submit')}
          </button>
        </div>
      </form>
      {busy && <p className="muted">{t('common.busy')}</p>}
      {saved && <SavedFile saved={saved} heading={t('timestamp.done')} {...(stamped ? { data: stamped } : {})} />}
      <ErrorAlert error={error} />
    </section>
  );
}
