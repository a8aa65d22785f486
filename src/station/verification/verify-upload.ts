import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { VerifyRequest } from '../../core/schemas/admin-api.js';
import type { DocumentVerification } from '../../core/schemas/verification-report.js';
import type { TrustSource } from '../ports/trust-source.js';
import { verifyDocument } from './verify-document.js';

/**
 * The window's verify screen: the uploaded file goes to a private folder of the data directory (the readers work
 * on files, to stream big ones), is verified exactly as `signing-station verify` does, and is deleted.
 */
export async function verifyUpload(request: VerifyRequest, options: { dataDir: string; trust: () => Promise<TrustSource>; offline: boolean }): Promise<DocumentVerification> {
  const folder = await mkdtemp(join(options.dataDir, 'verify-'));
  try {
    const path = join(folder, basename(request.fileName));
    await writeFile(path, Buffer.from(request.content, 'base64'), { mode: 0o600 });
    return await verifyDocument(path, { trust: await options.trust(), offline: options.offline });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
