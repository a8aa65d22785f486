import type { DeskBatchRequest, DeskBatchResponse, DeskSavedFile } from '../../../core/schemas/desk-api.js';
import type { SignatureBaseline } from '../../../core/schemas/signature-baseline.js';
import type { TokenDescription } from '../../../core/schemas/token-description.js';
import type { StampLanguage } from '../../../core/schemas/stamp-language.js';
import { postWithProgress } from './post-with-progress.js';
import { deskFilesOf } from './desk-files-of.js';
import { signPrepared, type SignStep } from './sign-prepared.js';
import { isCancel } from './is-cancel.js';

export interface BatchOrder {
  /** PDFs, each signed as its own signed PDF. */
  files: File[];
  baseline: SignatureBaseline;
  token: TokenDescription;
  certificateId: string;
  reason?: string;
  /** The language of each document's reason stamp. */
  stampLanguage?: StampLanguage;
}

/** Where one document of a batch is: kept as what happened, put in words when shown. */
export type BatchDocument = { fileName: string } & (
  | { status: 'waiting' }
  | { status: 'signing'; step: SignStep }
  | { status: 'signed'; saved: DeskSavedFile }
  | { status: 'failed'; cancelled: boolean; reason: unknown }
);

/**
 * Several PDFs signed one after another, each as its own signed PDF: the station prepares them as one batch, so the
 * first document's consent lists them all and covers the rest; the token asks its PIN as often as its key demands
 * (once for a token kept logged in, every time for a key that requires it). A document that fails is reported and
 * the next one goes on; a cancel (consent declined, PIN prompt cancelled) stops the documents still waiting.
 */
export async function signBatch(order: BatchOrder, helperHolder: HTMLElement, onProgress: (documents: BatchDocument[], sent?: number) => void): Promise<BatchDocument[]> {
  let documents: BatchDocument[] = order.files.map((file) => ({ fileName: file.name, status: 'waiting' }));
  const update = (index: number, next: BatchDocument): void => {
    documents = documents.map((document, at) => (at === index ? next : document));
    onProgress(documents);
  };
  onProgress(documents, 0);
  const certificate = order.token.certificates.find((candidate) => candidate.id === order.certificateId);
  const request: DeskBatchRequest = {
    files: await deskFilesOf(order.files),
    baseline: order.baseline,
    ...(certificate ? { signingCertificate: certificate.certificate } : {}),
    ...(order.reason ? { signingReason: order.reason, requireSigningReason: true } : {}),
    ...(order.stampLanguage ? { stampLanguage: order.stampLanguage } : {}),
  };
  const batch = await postWithProgress<DeskBatchResponse>('/admin/api/desk/batches', request, (fraction) => onProgress(documents, fraction));
  for (const [index, { docId, fileName }] of batch.documents.entries()) {
    if (documents[index]!.status !== 'waiting') continue;
    try {
      const signing = { clientId: batch.clientId, docId, token: order.token, certificateId: order.certificateId, reason: order.reason };
      const saved = await signPrepared(signing, helperHolder, (step) => update(index, { fileName, status: 'signing', step }));
      update(index, { fileName, status: 'signed', saved });
    } catch (reason) {
      const cancelled = isCancel(reason);
      update(index, { fileName, status: 'failed', cancelled, reason });
      if (cancelled) {
        for (let rest = index + 1; rest < documents.length; rest++) update(rest, { fileName: documents[rest]!.fileName, status: 'failed', cancelled: true, reason: undefined });
      }
    }
  }
  return documents;
}
