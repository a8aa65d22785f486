import type { DocumentVerification } from '../../../core/schemas/verification-report.js';
import { readAsBase64 } from '../signing/read-as-base64.js';
import { stationApi } from '../station-api.js';

/**
 * The one place the window verifies a file: the station's verification service (`POST /admin/api/verify`), the
 * same implementation as `signing-station verify`; `data`: the file a timestamp token is over.
 */
export async function verifyFile(file: File, data?: File): Promise<DocumentVerification> {
  const content = await readAsBase64(file);
  return stationApi.verify({ fileName: file.name, content, ...(data ? { data: { fileName: data.name, content: await readAsBase64(data) } } : {}) });
}
