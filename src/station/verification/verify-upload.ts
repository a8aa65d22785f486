import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { VerifyRequest } from '../../core/schemas/admin-api.js';
import type { DocumentVerification } from '../../core/schemas/verification-report.js';
import type { TrustSource } from '../ports/trust-source.js';
import { verifyDocument } from './verify-document.js';

/**
 * The window's verify screen: the uploaded file goes to a private folder of the data directory (the readers work
 * on files, to stream big ones), with the data file a timestamp or detached signature is over if the window sent
 * one, is verified exactly as `signing-station verify --data` does, and is deleted.
 */
export async function verifyUpload(request: VerifyRequest, options: { dataDir: string; trust: () => Promise<TrustSource>; offline: boolean }): Promise<DocumentVerification> {
  const folder = await mkdtemp(join(options.dataDir, 'verify-'));
  try {
    const path = join(folder, basename(request.fileName));
    await writeFile(path, Buffer.from(request.content, 'base64'), { mode: 0o600 });
    // The data file in a folder of its own: its name may be the signed file's.
    let data: string | undefined;
    if (request.data) {
      data = join(await mkdtemp(join(folder, 'data-')), basename(request.data.fileName));
      await writeFile(data, Buffer.from(request.data.content, 'base64'), { mode: 0o600 });
    }
    return await verifyDocument(path, { trust: await options.trust(), offline: options.offline, ...(data ? { data } : {}) });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
