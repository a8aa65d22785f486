import { useState, type ChangeEvent, type JSX } from 'react';
import type { DocumentVerification } from '../../core/schemas/verification-report.js';
import { describeSignature } from '../../core/verification/describe-signature.js';
import { ErrorAlert } from './error-alert.js';
import { stationApi } from './station-api.js';
import { StationApiError } from './station-api-error.js';

/** Base64 of a file picked in the page, without the data: URL prefix. */
function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('the file cannot be read'));
    reader.readAsDataURL(file);
  });
}

/** The verify screen: the station's own verification (the same as `signing-station verify`), one line per signature. */
export function VerifyPanel(): JSX.Element {
  const [report, setReport] = useState<DocumentVerification>();
  const [error, setError] = useState<string>();

  async function verify(event: ChangeEvent<HTMLInputElement>): Promise<void> {
    const file = event.currentTarget.files?.[0];
    if (!file) return;
    try {
      setReport(await stationApi.verify({ fileName: file.name, content: await readAsBase64(file) }));
      setError(undefined);
    } catch (reason) {
      setReport(undefined);
      setError(reason instanceof StationApiError ? reason.message : String(reason));
    }
  }

  return (
    <section className="panel" aria-labelledby="verify-heading">
      <h2 id="verify-heading">Verify a signed file</h2>
      <label>
        PDF, ASiC-E/ASiC-S, .p7s or .tsr <input type="file" aria-label="File to verify" onChange={(event) => void verify(event)} />
      </label>
      <ErrorAlert message={error} />
      {report ? (
        <div role="status" aria-label="Verification result">
          <p>
            {report.file}: {report.signatures.length === 0 ? 'no signatures' : report.valid ? `all ${report.signatures.length} valid` : 'NOT valid'}
          </p>
          <ol>
            {report.signatures.map((signature, index) => (
              <li key={index}>{describeSignature(signature)}</li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}
